package dev.lacewing.core.server;

import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.ScriptFunction;
import dev.lacewing.api.ScriptHost;
import dev.lacewing.api.ScriptRuntime;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's function libraries (Redis's functions.c functionsLibCtx): libraries by name and
 * their functions by name, function names unique across libraries.
 *
 * <p>The registry is shared by every thread and changed whole: each change builds new maps under
 * this object's lock and publishes them through one volatile field, so FCALL reads them without a
 * lock. Each version of a library has its own {@link Library#id}; a thread's runtime loads a
 * library's code the first time it calls one of its functions and drops what it loaded when
 * {@link #generation} moves (a library deleted or replaced).
 */
public final class Functions {

    /** FUNCTION LOAD's time limit for the load run (LOAD_TIMEOUT_MS). */
    public static final long LOAD_TIMEOUT_MILLIS = 500;
    public static final String ENGINE = "LUA";

    /** One library: its name, its code as loaded (shebang included) and its functions in registration order. */
    public static final class Library {
        final String name;
        final byte[] code;
        final String id;
        final Map<String, Function> functions = new LinkedHashMap<>();

        Library(String name, byte[] code, String id) {
            this.name = name;
            this.code = code;
            this.id = id;
        }

        public String name() {
            return name;
        }

        public byte[] code() {
            return code;
        }

        public Collection<Function> functions() {
            return functions.values();
        }
    }

    /** One function; its flags are the library's registration flags plus {@link Scripts#SHEBANG}. */
    public static final class Function extends Scripts.Program {
        final Library library;
        final String name;
        final String description;

        Function(Library library, ScriptFunction definition) {
            super(definition.flags() | Scripts.SHEBANG);
            this.library = library;
            this.name = definition.name();
            this.description = definition.description();
        }

        public String name() {
            return name;
        }

        public String description() {
            return description;
        }

        @Override
        void run(ScriptRuntime runtime, ScriptHost host, ReplyWriter reply) {
            runtime.callFunction(library.id, library.code, name, host, reply);
        }

        @Override
        boolean function() {
            return true;
        }
    }

    /** The published registry; never changed once published. */
    private record State(Map<String, Library> libraries, Map<String, Function> functions) {
    }

    private volatile State state = new State(Map.of(), Map.of());
    private volatile int generation;
    private long serial;

    /** Moves when a library is deleted or replaced: runtimes then drop the libraries they loaded. */
    int generation() {
        return generation;
    }

    public Function function(String name) {
        return state.functions.get(name);
    }

    public Library library(String name) {
        return state.libraries.get(name);
    }

    public Collection<Library> libraries() {
        return state.libraries.values();
    }

    public int functionCount() {
        return state.functions.size();
    }

    /** A library not yet published, for {@link #add}: its functions are added as its load registers them. */
    public synchronized Library newLibrary(String name, byte[] code) {
        return new Library(name, code, name + "#" + ++serial);
    }

    /** Adds a loaded function to a library not yet published. */
    public static void define(Library library, ScriptFunction definition) {
        library.functions.put(definition.name(), new Function(library, definition));
    }

    /**
     * Publishes {@code added} (functionsCreateWithLibraryCtx's last steps): null, or the error
     * without its code when a library of that name exists and {@code replace} is false, or when one
     * of its functions exists in another library.
     */
    public synchronized String add(Library added, boolean replace) {
        return add(List.of(added), replace, false, false);
    }

    /**
     * FUNCTION RESTORE's policies on top of {@link #add}: with {@code flush} the libraries replace
     * every library; otherwise they join them, replacing those of the same name when {@code replace}.
     * All or nothing. A collision is worded as libraryJoin words it.
     */
    public synchronized String restore(List<Library> added, boolean replace, boolean flush) {
        return add(added, replace, flush, true);
    }

    private String add(List<Library> added, boolean replace, boolean flush, boolean restoring) {
        Map<String, Library> libraries = flush ? new LinkedHashMap<>() : new LinkedHashMap<>(state.libraries);
        boolean removed = flush && !state.libraries.isEmpty();
        for (Library library : added) {
            Library old = libraries.remove(library.name);
            if (old != null && !replace) {
                return restoring ? "Library " + library.name + " already exists"
                    : "Library '" + library.name + "' already exists";
            }
            removed |= old != null;
            libraries.put(library.name, library);
        }
        Map<String, Function> functions = new LinkedHashMap<>();
        for (Library library : libraries.values()) {
            for (Function function : library.functions.values()) {
                if (functions.putIfAbsent(function.name, function) != null) {
                    return "Function " + function.name + " already exists";
                }
            }
        }
        publish(libraries, functions, removed);
        return null;
    }

    /** FUNCTION DELETE: whether the library existed. */
    public synchronized boolean delete(String name) {
        if (!state.libraries.containsKey(name)) {
            return false;
        }
        Map<String, Library> libraries = new LinkedHashMap<>(state.libraries);
        libraries.remove(name);
        Map<String, Function> functions = new LinkedHashMap<>(state.functions);
        functions.values().removeIf(function -> function.library.name.equals(name));
        publish(libraries, functions, true);
        return true;
    }

    /** FUNCTION FLUSH. */
    public synchronized void flush() {
        publish(new LinkedHashMap<>(), new LinkedHashMap<>(), true);
    }

    private void publish(Map<String, Library> libraries, Map<String, Function> functions, boolean removed) {
        state = new State(libraries, functions);
        if (removed) {
            generation++;
        }
    }

    /** Redis's functionsVerifyName: letters, digits and underscores, at least one. */
    public static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /** A library's shebang (functionExtractLibMetaData): its engine and name. */
    public record Metadata(String engine, String name) {
    }

    /** Parses the shebang line; throws with Redis's error text (without its code) otherwise. */
    public static Metadata metadata(byte[] code) {
        if (code.length < 2 || code[0] != '#' || code[1] != '!') {
            throw new IllegalArgumentException("Missing library metadata");
        }
        int end = 0;
        while (end < code.length && code[end] != '\n') {
            end++;
        }
        if (end == code.length) {
            throw new IllegalArgumentException("Invalid library metadata");
        }
        String[] parts = new String(code, 0, end, StandardCharsets.UTF_8).trim().split("[ \t\r\f\u000b]+");
        String engine = parts[0].substring(2);
        String name = null;
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i];
            if (part.regionMatches(true, 0, "name=", 0, 5)) {
                if (name != null) {
                    throw new IllegalArgumentException("Invalid metadata value, name argument was given multiple times");
                }
                name = part.substring(5);
                continue;
            }
            throw new IllegalArgumentException("Invalid metadata value given: " + part);
        }
        if (name == null) {
            throw new IllegalArgumentException("Library name was not given");
        }
        return new Metadata(engine, name);
    }
}
