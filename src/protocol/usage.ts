/** Wire shapes of the usage area (filled in by its issue). */
export {};
