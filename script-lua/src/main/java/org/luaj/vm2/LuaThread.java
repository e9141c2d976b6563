package org.luaj.vm2;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;
import org.luaj.vm2.lib.DebugLib;

/**
 * Lacewing's replacement for luaj 2.0.3's LuaThread, with the same binary API, so that several
 * Java threads may run Lua at once. luaj's own class keeps the running Lua thread in one static
 * field, and the call stack, the error handler and the debug state (hooks) of every call hang off
 * it: two Java threads in Lua would share one call stack. Here each Java thread has its own: a
 * worker thread's running Lua thread is its own main thread, made on first use; a coroutine, which
 * luaj runs on a Java thread of its own, is the running thread of that Java thread. Everything
 * else luaj reaches through {@link #getRunning()}, {@link #onCall} and {@link #getGlobals()}, so it
 * is per Java thread too.
 *
 * <p>This class is compiled into the plugin's own classes, which bnd packs before it copies the
 * rest of org.luaj.vm2 from the luaj jar (-conditionalpackage), and which come before that jar on
 * a class path: this definition wins in both (LuaThreadReplacementTest checks it).
 *
 * <p>Thread rule: a coroutine is resumed, and runs, while the Java thread that resumed it waits
 * (on its {@link State}'s monitor), so one Lua thread's fields are touched by one Java thread at a
 * time; the statics are constants or set once at start-up.
 */
public class LuaThread extends LuaValue {

    public static LuaValue s_metatable;
    /** Kept for luaj's API; coroutine Java threads are numbered by {@link #COROUTINES}. */
    public static int coroutine_count = 0;
    /** How long a suspended coroutine's Java thread waits before checking whether its Lua thread is garbage. */
    static long thread_orphan_check_interval = 30000;
    public static final int MAX_CALLSTACK = 256;
    public static int GC_INTERVAL = 30000;

    private static final int STATUS_INITIAL = 0;
    private static final int STATUS_SUSPENDED = 1;
    private static final int STATUS_RUNNING = 2;
    private static final int STATUS_NORMAL = 3;
    private static final int STATUS_DEAD = 4;
    private static final String[] STATUS_NAMES = {"suspended", "suspended", "running", "normal", "dead"};

    private static final AtomicInteger COROUTINES = new AtomicInteger();
    /** The Lua thread running on each Java thread: its main thread, or the coroutine the Java thread was started for. */
    private static final ThreadLocal<LuaThread> RUNNING = ThreadLocal.withInitial(LuaThread::newMain);

    /**
     * {@link #getRunning()}'s fast path, which luaj's debug support takes for every instruction a
     * script runs (DebugLib.debugBytecode): Java threads' main Lua threads, each in the slot its
     * thread id picks, so a lookup is one array read and a compare rather than a ThreadLocal probe.
     * A slot is written when a thread makes its main Lua thread and emptied when its thread's running
     * Lua thread changes (a coroutine's Java thread); threads whose ids share a slot and coroutine
     * threads go through {@link #RUNNING}. A slot holds its Lua thread weakly, so the Lua state of a
     * thread that ended is not kept.
     */
    private static final MainThread[] MAIN_THREADS = new MainThread[64];

    private static final class MainThread extends WeakReference<LuaThread> {
        final Thread thread;

        MainThread(Thread thread, LuaThread main) {
            super(main);
            this.thread = thread;
        }
    }

    private static int slot(Thread thread) {
        return (int) thread.getId() & (MAIN_THREADS.length - 1);
    }

    private static LuaThread newMain() {
        LuaThread main = new LuaThread();
        Thread current = Thread.currentThread();
        MAIN_THREADS[slot(current)] = new MainThread(current, main);
        return main;
    }

    /** The calling Java thread's running Lua thread becomes {@code thread} (null: none). */
    private static void setRunning(LuaThread thread) {
        Thread current = Thread.currentThread();
        int slot = slot(current);
        MainThread main = MAIN_THREADS[slot];
        if (main != null && main.thread == current) {
            MAIN_THREADS[slot] = null;
        }
        if (thread == null) {
            RUNNING.remove();
        } else {
            RUNNING.set(thread);
        }
    }

    private LuaValue env;
    private final State state;
    public LuaValue err;
    final CallStack callstack = new CallStack();
    public Object debugState;

    /** A Java thread's main Lua thread: running, with no function of its own. */
    private LuaThread() {
        state = new State(this, null);
        state.status = STATUS_RUNNING;
    }

    /** A coroutine that will run {@code func} with {@code env} as its globals. */
    public LuaThread(LuaValue func, LuaValue env) {
        LuaValue.assert_(func != null, "function cannot be null");
        this.env = env;
        state = new State(this, func);
    }

    @Override
    public int type() {
        return LuaValue.TTHREAD;
    }

    @Override
    public String typename() {
        return "thread";
    }

    @Override
    public boolean isthread() {
        return true;
    }

    @Override
    public LuaThread optthread(LuaThread defval) {
        return this;
    }

    @Override
    public LuaThread checkthread() {
        return this;
    }

    @Override
    public LuaValue getmetatable() {
        return s_metatable;
    }

    @Override
    public LuaValue getfenv() {
        return env;
    }

    @Override
    public void setfenv(LuaValue env) {
        this.env = env;
    }

    public String getStatus() {
        return STATUS_NAMES[state.status];
    }

    /** The Lua thread running on the calling Java thread. */
    public static LuaThread getRunning() {
        Thread current = Thread.currentThread();
        MainThread main = MAIN_THREADS[slot(current)];
        if (main != null && main.thread == current) {
            LuaThread running = main.get();
            if (running != null) {
                return running;
            }
        }
        return RUNNING.get();
    }

    public static boolean isMainThread(LuaThread thread) {
        return thread.state.function == null;
    }

    /** Sets the globals of the calling Java thread's running Lua thread. */
    public static void setGlobals(LuaValue globals) {
        getRunning().env = globals;
    }

    public static LuaValue getGlobals() {
        LuaValue globals = getRunning().env;
        return globals != null ? globals : LuaValue.error("LuaThread.setGlobals() not initialized");
    }

    /** Pushes {@code function} on the running thread's call stack; the caller pops it with {@link CallStack#onReturn()}. */
    public static final CallStack onCall(LuaFunction function) {
        CallStack stack = getRunning().callstack;
        stack.onCall(function);
        return stack;
    }

    /** The function {@code level} calls up the running thread's stack (1 is the innermost), or null. */
    public static final LuaFunction getCallstackFunction(int level) {
        return getRunning().callstack.getFunction(level);
    }

    /** Sets the running thread's error handler and returns the one it replaces. */
    public static LuaValue setErrorFunc(LuaValue errfunc) {
        LuaThread running = RUNNING.get();
        LuaValue previous = running.err;
        running.err = errfunc;
        return previous;
    }

    public static Varargs yield(Varargs args) {
        State state = RUNNING.get().state;
        if (state.function == null) {
            throw new LuaError("cannot yield main thread");
        }
        return state.lua_yield(args);
    }

    public Varargs resume(Varargs args) {
        if (state.status > STATUS_SUSPENDED) {
            return LuaValue.varargsOf(LuaValue.FALSE,
                LuaValue.valueOf("cannot resume " + STATUS_NAMES[state.status] + " coroutine"));
        }
        return state.lua_resume(this, args);
    }

    /**
     * A coroutine's hand-over between the Java thread that resumes it and the Java thread it runs
     * on: both wait on this monitor in turn, so only one of them runs Lua at a time.
     */
    static final class State implements Runnable {
        final WeakReference<LuaThread> lua_thread;
        final LuaValue function;
        Varargs args = LuaValue.NONE;
        Varargs result = LuaValue.NONE;
        String error = null;
        int status = STATUS_INITIAL;

        State(LuaThread thread, LuaValue function) {
            this.lua_thread = new WeakReference<>(thread);
            this.function = function;
        }

        /** The coroutine's Java thread: runs the function with its Lua thread as the running one. */
        @Override
        public synchronized void run() {
            try {
                LuaThread thread = lua_thread.get();
                if (thread == null) {
                    return;
                }
                setRunning(thread);
                thread = null;
                Varargs a = args;
                args = LuaValue.NONE;
                result = function.invoke(a);
            } catch (Throwable t) {
                error = t.getMessage();
            } finally {
                status = STATUS_DEAD;
                notify();
            }
        }

        /** Runs the coroutine until it yields or ends; the calling Java thread waits meanwhile. */
        synchronized Varargs lua_resume(LuaThread thread, Varargs resumeArgs) {
            LuaThread previous = RUNNING.get();
            try {
                args = resumeArgs;
                if (status == STATUS_INITIAL) {
                    status = STATUS_RUNNING;
                    new Thread(this, "Coroutine-" + COROUTINES.incrementAndGet()).start();
                } else {
                    notify();
                }
                previous.state.status = STATUS_NORMAL;
                status = STATUS_RUNNING;
                wait();
                return error != null
                    ? LuaValue.varargsOf(LuaValue.FALSE, LuaValue.valueOf(error))
                    : LuaValue.varargsOf(LuaValue.TRUE, result);
            } catch (InterruptedException e) {
                throw new OrphanedThread();
            } finally {
                previous.state.status = STATUS_RUNNING;
                args = LuaValue.NONE;
                result = LuaValue.NONE;
                error = null;
            }
        }

        /** Hands {@code yieldArgs} to the resumer and waits to be resumed again (or found orphaned). */
        synchronized Varargs lua_yield(Varargs yieldArgs) {
            try {
                result = yieldArgs;
                status = STATUS_SUSPENDED;
                notify();
                // While suspended, this Java thread must not hold its Lua thread strongly, or an
                // abandoned coroutine would never be collected and its Java thread would wait forever.
                setRunning(null);
                do {
                    wait(thread_orphan_check_interval);
                    if (lua_thread.get() == null) {
                        status = STATUS_DEAD;
                        throw new OrphanedThread();
                    }
                } while (status == STATUS_SUSPENDED);
                setRunning(lua_thread.get());
                return args;
            } catch (InterruptedException e) {
                status = STATUS_DEAD;
                throw new OrphanedThread();
            } finally {
                args = LuaValue.NONE;
                result = LuaValue.NONE;
            }
        }
    }

    /** A Lua thread's call stack, kept for error positions, the debug library and hooks. */
    public static class CallStack {
        final LuaFunction[] functions = new LuaFunction[MAX_CALLSTACK];
        int calls = 0;

        final void onCall(LuaFunction function) {
            functions[calls++] = function;
            if (DebugLib.DEBUG_ENABLED) {
                DebugLib.debugOnCall(getRunning(), calls, function);
            }
        }

        public final void onReturn() {
            functions[--calls] = null;
            if (DebugLib.DEBUG_ENABLED) {
                DebugLib.debugOnReturn(getRunning(), calls);
            }
        }

        public final int getCallstackDepth() {
            return calls;
        }

        LuaFunction getFunction(int level) {
            return level > 0 && level <= calls ? functions[calls - level] : null;
        }
    }
}
