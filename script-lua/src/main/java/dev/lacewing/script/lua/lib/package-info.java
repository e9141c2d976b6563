/**
 * The libraries Redis embeds for scripts, cjson, cmsgpack, struct and bit, as luaj library
 * tables; {@link dev.lacewing.script.lua.lib.RedisLuaLibraries#install} puts them in a globals
 * table.
 */
package dev.lacewing.script.lua.lib;
