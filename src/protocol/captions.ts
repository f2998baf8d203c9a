/** Wire shapes of the captions area (filled in by its issue). */
export {};
