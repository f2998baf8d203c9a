/** Wire shapes of the open area (filled in by its issue). */
export {};
