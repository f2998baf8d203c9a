/** Wire shapes of the gender area (filled in by its issue). */
export {};
