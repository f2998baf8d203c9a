/** Wire shapes of the voices area (filled in by its issue). */
export {};
