package dev.lacewing.script.lua.lib;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * A library function with lauxlib's argument checks. luaj's own checks word their errors
 * differently ("bad argument: number expected, got nil"); these reproduce Lua 5.1's
 * luaL_argerror and luaL_typerror text, "bad argument #1 to 'pack' (number expected, got no
 * value)", naming the function by its field in the library table, as Lua 5.1 does for the usual
 * call {@code struct.pack(...)} (a tail call or a call through a local names it differently there).
 * A {@link LuaError} thrown here carries the caller's position where luaj tracks it, as
 * luaL_error's does. Stateless; any thread running the script may call it.
 */
final class LibraryFunction extends VarArgFunction {

    /** The function's work on its arguments; {@code self} serves the argument checks. */
    interface Body {
        Varargs apply(LibraryFunction self, Varargs args);
    }

    /** The field name used in error messages; luaj's own name field would also become tostring's text. */
    private final String functionName;
    private final Body body;

    LibraryFunction(String functionName, Body body) {
        this.functionName = functionName;
        this.body = body;
    }

    /** "function: " and an identity, as tostring gives for any Lua function, not luaj's bare name. */
    @Override
    public String tojstring() {
        return "function: " + Integer.toHexString(System.identityHashCode(this));
    }

    static void register(LuaValue table, String name, Body body) {
        table.set(name, new LibraryFunction(name, body));
    }

    @Override
    public Varargs invoke(Varargs args) {
        return body.apply(this, args);
    }

    LuaError argError(int argument, String message) {
        return new LuaError("bad argument #" + argument + " to '" + functionName + "' (" + message + ")");
    }

    LuaError typeError(Varargs args, int argument, String expected) {
        return argError(argument, expected + " expected, got " + typeName(args, argument));
    }

    static String typeName(Varargs args, int argument) {
        return argument > args.narg() ? "no value" : args.arg(argument).typename();
    }

    /** luaL_checknumber: a number, or a string that converts to one. */
    double checkNumber(Varargs args, int argument) {
        LuaValue number = args.arg(argument).tonumber();
        if (number.isnil()) {
            throw typeError(args, argument, "number");
        }
        return number.todouble();
    }

    /** luaL_checkinteger: as checkNumber, truncated toward zero as the C cast does. */
    long checkInteger(Varargs args, int argument) {
        return (long) checkNumber(args, argument);
    }

    /** luaL_optinteger: absent or nil gives the default. */
    long optInteger(Varargs args, int argument, long fallback) {
        return args.isnoneornil(argument) ? fallback : checkInteger(args, argument);
    }

    /** luaL_checklstring: a string, or a number in its string form. */
    org.luaj.vm2.LuaString checkString(Varargs args, int argument) {
        LuaValue value = args.arg(argument);
        if (!value.isstring()) {
            throw typeError(args, argument, "string");
        }
        return value.strvalue();
    }
}
