package dev.lacewing.script.lua;

import dev.lacewing.api.ScriptRuntime;
import dev.lacewing.api.ScriptingProvider;

/** Lua 5.1 scripting, as Redis embeds it, on luaj (pure Java). */
public final class LuaScripting implements ScriptingProvider {

    @Override
    public String language() {
        return "lua";
    }

    @Override
    public ScriptRuntime newRuntime() {
        return new LuaRuntime();
    }
}
