/** Trims whitespace and trailing slashes: `https://host/v1/` -> `https://host/v1`; paths are appended to it. */
export const normaliseBaseUrl = (baseUrl: string): string => baseUrl.trim().replace(/\/+$/, '');
