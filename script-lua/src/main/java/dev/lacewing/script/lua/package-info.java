/**
 * Lua scripting for EVAL, EVALSHA and FUNCTION: Redis's Lua 5.1 sandbox on luaj, behind the
 * scripting SPI in {@code dev.lacewing.api}.
 */
package dev.lacewing.script.lua;
