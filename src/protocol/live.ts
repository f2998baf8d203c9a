/** Wire shapes of the live area (filled in by its issue). */
export {};
