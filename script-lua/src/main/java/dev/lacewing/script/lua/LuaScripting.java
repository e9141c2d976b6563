package dev.lacewing.script.lua;

import dev.lacewing.api.ScriptRuntime;
import dev.lacewing.api.ScriptingProvider;
import dev.lacewing.script.lua.lib.RedisRandom;

/** Lua 5.1 scripting, as Redis embeds it, on luaj (pure Java). */
public final class LuaScripting implements ScriptingProvider {

    /** math.random's one sequence for every runtime this provider makes (Redis has one per server). */
    private final RedisRandom random = new RedisRandom();

    @Override
    public String language() {
        return "lua";
    }

    @Override
    public ScriptRuntime newRuntime() {
        return new LuaRuntime(random);
    }
}
