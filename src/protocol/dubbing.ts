/** Wire shapes of the dubbing area (filled in by its issue). */
export {};
