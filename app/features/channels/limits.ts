/** Channel ids and names, as the forms and the server check them (no validator library: the invite link reads these on first load). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const CHANNEL_ID_MESSAGE = "Channel ID must be a UUID (like 123e4567-e89b-12d3-a456-426614174000).";
export const MAX_CHANNEL_NAME = 100;
