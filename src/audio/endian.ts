/** Whether this machine stores typed-array elements little-endian (then 16-bit PCM bytes can be copied as they are). */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
