package dev.lacewing.script.lua.lib;

import java.util.concurrent.atomic.AtomicLong;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * Redis's math.random and math.randomseed (script_lua.c's redis_math_random over rand.c's
 * redisLrand48): the 48-bit generator of drand48, x = (0x5DEECE66D x + 0xB) mod 2^48, whose draw
 * is the top 31 bits, so that a script gets the same numbers on every platform. Redis 7.0 keeps one
 * sequence for the whole server: it starts at rand.c's initial state 0x1234ABCD330E, every script
 * and function draws from it in turn, SCRIPT FLUSH does not reset it, and only math.randomseed
 * (seed truncated to an int, as luaL_checkint does) restarts it.
 *
 * <p>Thread rule: one instance per server, shared by every thread that runs Lua (scripts on
 * different threads run at once): the state is one atomic word, so each draw takes exactly one
 * step of the one sequence, as Redis's draws do, in whatever order the threads make them.
 */
public final class RedisRandom {

    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long INCREMENT = 0xB;
    private static final long MASK = (1L << 48) - 1;
    /** REDIS_LRAND48_MAX. */
    private static final double MAX = Integer.MAX_VALUE;

    private final AtomicLong state = new AtomicLong(0x1234ABCD330EL);

    /** redisSrand48. */
    void seed(int seed) {
        state.set(((seed & 0xFFFFFFFFL) << 16) | 0x330E);
    }

    /** redisLrand48: the next 31-bit draw. */
    int next() {
        long next = state.updateAndGet(x -> (x * MULTIPLIER + INCREMENT) & MASK);
        return (int) (next >>> 17);
    }

    /** Replaces {@code math}'s random and randomseed (not yet locked) with Redis's, drawing from this generator. */
    public void install(LuaTable math) {
        LibraryFunction.register(math, "random", (self, args) -> random(self, args));
        LibraryFunction.register(math, "randomseed", (self, args) -> {
            seed((int) self.checkInteger(args, 1));
            return LuaValue.NONE;
        });
    }

    private Varargs random(LibraryFunction self, Varargs args) {
        double r = (next() % Integer.MAX_VALUE) / MAX;
        switch (args.narg()) {
            case 0:
                return LuaValue.valueOf(r);
            case 1: {
                int upper = (int) self.checkInteger(args, 1);
                if (upper < 1) {
                    throw self.argError(1, "interval is empty");
                }
                return LuaValue.valueOf(Math.floor(r * upper) + 1);
            }
            case 2: {
                int lower = (int) self.checkInteger(args, 1);
                int upper = (int) self.checkInteger(args, 2);
                if (lower > upper) {
                    throw self.argError(2, "interval is empty");
                }
                return LuaValue.valueOf(Math.floor(r * (upper - lower + 1)) + lower);
            }
            default:
                throw new LuaError("wrong number of arguments");
        }
    }
}
