package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.server.ModuleLoader;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** COMMAND, INFO, CONFIG, MEMORY, DEBUG, TIME and MODULE's protection over raw sockets. */
class ServerCommandsTest {

    private static int port(Target target) {
        return Servers.server(target).port();
    }

    /** A flat name/value array (RESP2 map) as a Map. */
    private static Map<Object, Object> pairs(String reply) {
        List<?> flat = (List<?>) RespClient.parse(reply);
        Map<Object, Object> map = new HashMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            map.put(flat.get(i), flat.get(i + 1));
        }
        return map;
    }

    private static Map<String, String> infoFields(String reply) {
        Map<String, String> fields = new HashMap<>();
        for (String line : ((String) RespClient.parse(reply)).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void commandDescribesTheTable(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            long count = (Long) RespClient.parse(client.call("COMMAND", "COUNT"));
            List<?> names = (List<?>) RespClient.parse(client.call("COMMAND", "LIST"));
            assertEquals(count, names.stream().filter(name -> !name.toString().contains("|")).count());
            assertTrue(names.containsAll(List.of("client|info", "config|get", "memory|usage")), names.toString());
            assertTrue(names.containsAll(List.of("get", "set", "mset", "ping", "client", "config", "command")));
            assertEquals(count, ((List<?>) RespClient.parse(client.call("COMMAND"))).size());
            List<?> info = (List<?>) ((List<?>) RespClient.parse(client.call("COMMAND", "INFO", "mset"))).get(0);
            assertEquals(List.of("mset", -3L), info.subList(0, 2));
            assertEquals(List.of(1L, -1L, 2L), info.subList(3, 6));
            assertEquals("*1\r\n$-1\r\n", client.call("COMMAND", "INFO", "nosuch"));
            List<?> docs = (List<?>) RespClient.parse(client.call("COMMAND", "DOCS", "get"));
            assertEquals("get", docs.get(0));
            assertTrue(docs.get(1).toString().contains("group, string"), docs.toString());
            assertEquals("*2\r\n$1\r\na\r\n$1\r\nb\r\n", client.call("COMMAND", "GETKEYS", "MSET", "a", "1", "b", "2"));
            assertEquals("*3\r\n$5\r\nincrby\r\n$11\r\nincrbyfloat\r\n$4\r\nincr\r\n".length(),
                client.call("COMMAND", "LIST", "FILTERBY", "PATTERN", "incr*").length());
            assertTrue(((List<?>) RespClient.parse(client.call("COMMAND", "LIST", "FILTERBY", "ACLCAT", "string")))
                .containsAll(List.of("get", "setrange", "msetnx")));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void anUnknownStorageIsRefusedAtStartNamingThoseAvailable(Target target) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> Servers.builder(target).set("storage", "nonesuch").start().close());
        assertEquals("no storage named 'nonesuch'; available: [compact, tiered]", refused.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void infoReportsEverySection(Target target) {
        LacewingServer server = Servers.server(target);
        try (RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "server:info:" + target, "v");
            Map<String, String> all = infoFields(client.call("INFO", "everything"));
            assertEquals("7.0.15", all.get("redis_version"));
            assertEquals(Integer.toString(server.port()), all.get("tcp_port"));
            assertEquals(Long.toString(ProcessHandle.current().pid()), all.get("process_id"));
            assertTrue(Long.parseLong(all.get("uptime_in_seconds")) >= 0);
            assertEquals(target.engine(), all.get("lacewing_engine"));
            assertEquals(target.storage(), all.get("lacewing_storage"));
            assertEquals(target.transport(), all.get("lacewing_transport"));
            assertEquals("per-core", all.get("lacewing_threading"));
            assertEquals("2", all.get("lacewing_threads"));
            assertTrue(Long.parseLong(all.get("connected_clients")) >= 1);
            assertTrue(Long.parseLong(all.get("used_memory")) > 0);
            assertTrue(Long.parseLong(all.get("total_commands_processed")) > 0);
            assertTrue(all.get("db0").startsWith("keys="), all.get("db0"));
            assertTrue(all.get("cmdstat_set").startsWith("calls="), all.get("cmdstat_set"));
            String clients = (String) RespClient.parse(client.call("INFO", "clients"));
            assertTrue(clients.startsWith("# Clients\r\n") && !clients.contains("# Server"), clients);
            assertEquals("$0\r\n\r\n", client.call("INFO", "nosuchsection"));
            client.call("GETDEL", "server:info:" + target);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configGetsAndSetsSeveralParametersAtOnce(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            Map<Object, Object> several = pairs(client.call("CONFIG", "GET", "maxclients", "timeout", "*-max-*-len"));
            assertEquals(Map.of("maxclients", "10000", "timeout", "0", "proto-max-bulk-len", "536870912"), several);
            assertEquals(Map.of("MaxClients", "10000"), pairs(client.call("CONFIG", "GET", "MaxClients")));
            assertEquals("*0\r\n", client.call("CONFIG", "GET", "nosuch*"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "timeout", "300", "maxclients", "50"));
            assertEquals(Map.of("maxclients", "50", "timeout", "300"),
                pairs(client.call("CONFIG", "GET", "maxclients", "timeout")));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'maxclients') - argument must be "
                + "between 1 and 4294967295 inclusive\r\n", client.call("CONFIG", "SET", "timeout", "5", "maxclients", "0"));
            assertEquals(Map.of("timeout", "300"), pairs(client.call("CONFIG", "GET", "timeout")), "nothing was set");
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "proto-max-bulk-len", "2mb"));
            assertEquals(Map.of("proto-max-bulk-len", "2097152"), pairs(client.call("CONFIG", "GET", "proto-max-bulk-len")));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'databases') - can't set immutable "
                + "config\r\n", client.call("CONFIG", "SET", "databases", "4"));
            client.call("SET", "k", "v");
            assertTrue(infoFields(client.call("INFO", "commandstats")).containsKey("cmdstat_set"));
            assertEquals("+OK\r\n", client.call("CONFIG", "RESETSTAT"));
            assertTrue(!infoFields(client.call("INFO", "commandstats")).containsKey("cmdstat_set"));
            assertEquals("-ERR The server is running without a config file\r\n", client.call("CONFIG", "REWRITE"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configSetHzClampsItTo1Through500(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "hz", "0"));
            assertEquals(Map.of("hz", "1"), pairs(client.call("CONFIG", "GET", "hz")));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "hz", "1000"));
            assertEquals(Map.of("hz", "500"), pairs(client.call("CONFIG", "GET", "hz")));
            assertEquals("500", infoFields(client.call("INFO", "server")).get("hz"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'hz') - argument must be between 0 and "
                + "2147483647 inclusive\r\n", client.call("CONFIG", "SET", "hz", "-1"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "hz", "42"));
            assertEquals(Map.of("hz", "42"), pairs(client.call("CONFIG", "GET", "hz")));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void commandstatsCountSubcommandsUnderTheirFullName(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            client.call("CLIENT", "INFO");
            client.call("CLIENT", "INFO");
            client.call("CONFIG", "GET", "hz");
            client.call("CLIENT", "SETNAME", "a b");
            Map<String, String> stats = infoFields(client.call("INFO", "commandstats"));
            assertTrue(stats.get("cmdstat_client|info").startsWith("calls=2,"), stats.toString());
            assertTrue(stats.get("cmdstat_config|get").startsWith("calls=1,"), stats.toString());
            assertTrue(stats.get("cmdstat_client|setname").endsWith(",rejected_calls=0,failed_calls=1"),
                stats.toString());
            assertTrue(!stats.containsKey("cmdstat_client") && !stats.containsKey("cmdstat_config"), stats.toString());
        }
    }

    /** A plugin's command has no details: it is described from its spec alone, as a module command. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aPluginCommandIsDescribedFromItsSpec(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            assertEquals("*1\r\n*10\r\n$12\r\ntest.setlist\r\n:2\r\n*1\r\n+write\r\n:1\r\n:1\r\n:1\r\n"
                + "*3\r\n+@write\r\n+@list\r\n+@slow\r\n*0\r\n"
                + "*1\r\n*6\r\n$5\r\nflags\r\n*1\r\n+RW\r\n"
                + "$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n"
                + "$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n"
                + "*6\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n*0\r\n",
                client.call("COMMAND", "INFO", "test.setlist"));
            Map<Object, Object> docs = pairs(client.call("COMMAND", "DOCS", "test.setlist"));
            assertEquals(List.of("summary", "Stores a one-element list-typed value at a key (tests only).",
                "group", "module", "module", "test-fixture"), docs.get("test.setlist"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void memoryUsageAndTime(Target target) {
        String key = "server:memory:" + target;
        try (RespClient client = RespClient.connect(port(target))) {
            client.call("SET", key, "x".repeat(1000));
            long usage = (Long) RespClient.parse(client.call("MEMORY", "USAGE", key));
            if (target.storage().equals("tiered")) {
                // On purpose unlike Redis: the value is on disk, and MEMORY USAGE counts RAM only
                // (docs/plugins.md), the key's entry and the value's (offset, length) handle.
                assertTrue(usage > 0 && usage < 200, "usage " + usage);
            } else {
                assertTrue(usage >= 1000 && usage < 2000, "usage " + usage);
            }
            assertEquals("$-1\r\n", client.call("MEMORY", "USAGE", key + ":missing"));
            client.call("GETDEL", key);
            List<?> time = (List<?>) RespClient.parse(client.call("TIME"));
            long seconds = Long.parseLong((String) time.get(0));
            assertTrue(Math.abs(seconds - System.currentTimeMillis() / 1000) <= 2);
            assertTrue(Long.parseLong((String) time.get(1)) < 1_000_000);
        }
    }

    // ---- protected commands and settings (Redis 7.0's enable-*-command, enable-protected-configs) ----

    private static final String MODULE_NOT_ALLOWED = "-ERR MODULE command not allowed. If the enable-module-command "
        + "option is set to \"local\", you can run it from a local connection, otherwise you need to set this option "
        + "in the configuration file, and then restart the server.\r\n";
    private static final String DEBUG_NOT_ALLOWED = "-ERR DEBUG command not allowed. If the enable-debug-command "
        + "option is set to \"local\", you can run it from a local connection, otherwise you need to set this option "
        + "in the configuration file, and then restart the server.\r\n";

    /** A module loader that only records what it is asked, so a test sees whether the gate came first. */
    private static final class RecordingModuleLoader implements ModuleLoader {
        final List<String> requests = new CopyOnWriteArrayList<>();

        @Override
        public String load(Path jar, List<String> arguments) {
            requests.add("load " + jar + " " + arguments);
            return "example";
        }

        @Override
        public boolean unload(String name) {
            requests.add("unload " + name);
            return true;
        }

        @Override
        public List<LoadedModule> list() {
            return List.of(new LoadedModule("example", "1", "/tmp/example.jar", List.of()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void moduleLoadAndUnloadAreRefusedByDefaultBeforeTheLoaderIsAsked(Target target) {
        RecordingModuleLoader loader = new RecordingModuleLoader();
        try (LacewingServer server = Servers.builder(target).moduleLoader(registry -> loader)
                 .set("requirepass", "secret").start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals(MODULE_NOT_ALLOWED, client.call("MODULE", "LOAD", "/tmp/example.jar"), "before NOAUTH");
            assertEquals("+OK\r\n", client.call("AUTH", "secret"));
            assertEquals(MODULE_NOT_ALLOWED, client.call("module", "load", "/tmp/example.jar", "arg"));
            assertEquals(MODULE_NOT_ALLOWED, client.call("MODULE", "UNLOAD", "example"));
            assertEquals("-ERR wrong number of arguments for 'module|load' command\r\n", client.call("MODULE", "LOAD"));
            assertTrue(client.call("MODULE", "LIST").contains("example"), "MODULE LIST is not protected");
            assertTrue(client.call("MODULE", "HELP").startsWith("*"), "nor is MODULE HELP");
            assertEquals(List.of(), loader.requests);
            assertTrue(infoFields(client.call("INFO", "commandstats")).get("cmdstat_module|unload")
                .startsWith("calls=0,"), "a refused command is not called");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void moduleLoadAndUnloadRunForEveryClientWithEnableModuleCommandYes(Target target) {
        RecordingModuleLoader loader = new RecordingModuleLoader();
        String address = Servers.nonLoopbackAddress();
        try (LacewingServer server = Servers.builder(target).moduleLoader(registry -> loader)
                 .set("enable-module-command", "yes").set("protected-mode", "no")
                 .set("bind", address == null ? "127.0.0.1" : address + " 127.0.0.1").start()) {
            try (RespClient client = RespClient.connect(server.port())) {
                assertEquals("+OK\r\n", client.call("MODULE", "LOAD", "/tmp/example.jar", "a", "b"));
                assertEquals("+OK\r\n", client.call("MODULE", "UNLOAD", "example"));
            }
            assertEquals(List.of("load /tmp/example.jar [a, b]", "unload example"), loader.requests);
            assumeTrue(address != null, "this machine has no non-loopback IPv4 address to connect from");
            try (RespClient outsider = RespClient.connect(address, server.port())) {
                assertEquals("+OK\r\n", outsider.call("MODULE", "LOAD", "/tmp/example.jar"));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void debugRunsOnlyWhereEnableDebugCommandAllows(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            assertEquals(DEBUG_NOT_ALLOWED, client.call("DEBUG", "SLEEP", "0"));
            assertEquals(DEBUG_NOT_ALLOWED, client.call("DEBUG", "HELP"));
            assertEquals("-ERR wrong number of arguments for 'debug' command\r\n", client.call("DEBUG"));
        }
        try (LacewingServer server = Servers.builder(target).set("enable-debug-command", "yes").start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("DEBUG", "SLEEP", "0"));
        }
    }

    /**
     * local (Redis's islocalClient) lets a client on 127.0.0.1 run MODULE LOAD and DEBUG, and refuses
     * one connected to the machine's own non-loopback address.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void localAllowsProtectedCommandsFromTheLoopbackAddressOnly(Target target) {
        RecordingModuleLoader loader = new RecordingModuleLoader();
        String address = Servers.nonLoopbackAddress();
        try (LacewingServer server = Servers.builder(target).moduleLoader(registry -> loader)
                 .set("enable-module-command", "local").set("enable-debug-command", "LOCAL").set("protected-mode", "no")
                 .set("bind", address == null ? "127.0.0.1" : address + " 127.0.0.1").start()) {
            try (RespClient client = RespClient.connect(server.port())) {
                assertEquals("+OK\r\n", client.call("MODULE", "LOAD", "/tmp/example.jar"));
                assertEquals("+OK\r\n", client.call("DEBUG", "SLEEP", "0"));
            }
            assumeTrue(address != null, "this machine has no non-loopback IPv4 address to connect from");
            try (RespClient outsider = RespClient.connect(address, server.port())) {
                assertEquals(MODULE_NOT_ALLOWED, outsider.call("MODULE", "LOAD", "/tmp/example.jar"));
                assertEquals(MODULE_NOT_ALLOWED, outsider.call("MODULE", "UNLOAD", "example"));
                assertEquals(DEBUG_NOT_ALLOWED, outsider.call("DEBUG", "SLEEP", "0"));
                assertEquals("*2\r\n$20\r\nenable-debug-command\r\n$5\r\nlocal\r\n",
                    outsider.call("CONFIG", "GET", "enable-debug-command"));
            }
            assertEquals(List.of("load /tmp/example.jar []"), loader.requests);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theGatesAreReadByConfigGetAndImmutable(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            assertEquals(Map.of("enable-debug-command", "no", "enable-module-command", "no",
                "enable-protected-configs", "no"), pairs(client.call("CONFIG", "GET", "enable-*")));
            for (String name : List.of("enable-debug-command", "enable-module-command", "enable-protected-configs")) {
                assertEquals("-ERR CONFIG SET failed (possibly related to argument '" + name + "') - can't set "
                    + "immutable config\r\n", client.call("CONFIG", "SET", name, "yes"));
            }
            List<?> debug = (List<?>) ((List<?>) RespClient.parse(client.call("COMMAND", "INFO", "debug"))).get(0);
            assertEquals(List.of("admin", "noscript", "loading", "stale"), debug.get(2), "protected is not reported");
        }
    }
}
