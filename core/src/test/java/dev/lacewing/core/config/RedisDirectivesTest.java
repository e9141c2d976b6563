package dev.lacewing.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis 7.0's directives as a redis.conf, the command line and CONFIG SET give them: every name
 * and alias known, with Redis's defaults, value syntax and error texts (each text checked against
 * redis-server 7.0.15, {@code redis-server --port 0 --name value}).
 */
class RedisDirectivesTest {

    /** Where Lacewing's default differs on purpose: bind is redis.conf's, dir and port the machine's. */
    private static final Set<String> OWN_DEFAULTS = Set.of("bind", "dir", "port");

    /** redis-server 7.0.15's CONFIG GET * with no config file: name, tab, value. */
    private static Map<String, String> redisDefaults() throws IOException {
        Map<String, String> defaults = new LinkedHashMap<>();
        try (InputStream in = RedisDirectivesTest.class.getResourceAsStream("redis-7.0.15-config-get-all.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] fields = line.split("\t", 2);
                defaults.put(fields[0], fields[1]);
            }
        }
        return defaults;
    }

    private static String error(String name, String value) {
        return assertThrows(IllegalArgumentException.class, () -> new Config().initialize(name, value)).getMessage();
    }

    @Test
    void everyRedisDirectiveAndAliasIsKnownWithRedissDefault() throws IOException {
        Map<String, String> defaults = redisDefaults();
        assertEquals(192, defaults.size());
        Config config = new Config();
        List<String> wrong = new ArrayList<>();
        defaults.forEach((name, value) -> {
            if (config.setting(name).isEmpty()) {
                wrong.add(name + " unknown");
            } else if (!OWN_DEFAULTS.contains(name) && !config.displayed(name).orElseThrow().equals(value)) {
                wrong.add(name + " is '" + config.displayed(name).orElseThrow() + "', Redis has '" + value + "'");
            }
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void configGetStarListsEveryRedisNameAliasesIncluded() throws IOException {
        Set<String> listed = new java.util.HashSet<>();
        new Config().matching(name -> true).forEach(entry -> listed.add(entry.getKey()));
        assertTrue(listed.containsAll(redisDefaults().keySet()));
    }

    @Test
    void anUnknownDirectiveIsRedissBadDirective() {
        assertEquals("Bad directive or wrong number of arguments", error("foo", "bar"));
    }

    @Test
    void booleansTakeYesOrNoInAnyCase() {
        Config config = new Config();
        config.initialize("appendonly", "YES");
        assertEquals("yes", config.value("appendonly"));
        assertEquals("argument must be 'yes' or 'no'", error("appendonly", "maybe"));
    }

    @Test
    void enumsTakeRedissChoicesInAnyCaseAndListThemInRedissOrder() {
        Config config = new Config();
        config.initialize("appendfsync", "Always");
        assertEquals("always", config.value("appendfsync"));
        assertEquals("argument(s) must be one of the following: everysec, always, no", error("appendfsync", "foo"));
        assertEquals("argument(s) must be one of the following: disabled, on-empty-db, swapdb",
            error("repl-diskless-load", "zzz"));
    }

    @Test
    void integersAreBoundedAsRedisBoundsThem() {
        assertEquals("argument couldn't be parsed into an integer", error("io-threads", "x"));
        assertEquals("argument must be between 1 and 128 inclusive", error("io-threads", "200"));
        assertEquals("argument must be between 0 and 2147483647 inclusive", error("tcp-keepalive", "-1"));
        assertEquals("argument must be between 0 and 65535 inclusive", error("tls-port", "70000"));
    }

    @Test
    void memoryValuesTakeRedissUnits() {
        Config config = new Config();
        config.initialize("auto-aof-rewrite-min-size", "64mb");
        assertEquals("67108864", config.value("auto-aof-rewrite-min-size"));
        config.initialize("repl-backlog-size", "1k");
        assertEquals("1000", config.value("repl-backlog-size"));
        assertEquals("argument must be a memory value", error("repl-backlog-size", "1x"));
    }

    @Test
    void multiWordValuesAreKeptWhole() {
        Config config = new Config();
        config.initialize("oom-score-adj-values", "0 200 800");
        assertEquals("0 200 800", config.value("oom-score-adj-values"));
    }

    @Test
    void anAliasSetsItsSetting() {
        Config config = new Config();
        config.initialize("slave-read-only", "no");
        assertEquals("no", config.value("replica-read-only"));
        assertEquals(Map.entry("slave-read-only", "no"),
            config.matching(name -> name.equals("slave-read-only")).get(0));
    }

    @Test
    void redissImmutableDirectivesAreRefusedByConfigSet() {
        Config config = new Config();
        for (String name : List.of("daemonize", "pidfile", "logfile", "io-threads", "tcp-backlog", "unixsocket")) {
            assertEquals("can't set immutable config", config.refusal(config.setting(name).orElseThrow(), true), name);
        }
        config.set("appendfsync", "no");
        assertEquals("no", config.value("appendfsync"));
    }

    @Test
    void ioThreadsSetsThreadsUnlessThreadsIsGiven() {
        Config config = new Config();
        config.initialize("io-threads", "4");
        assertEquals("4", config.value("threads"));
        Config explicit = new Config();
        explicit.initialize("threads", "2");
        explicit.initialize("io-threads", "4");
        assertEquals("2", explicit.value("threads"));
        assertEquals("4", explicit.value("io-threads"));
    }

    @Test
    void directivesWithoutEffectAreNamedOnceUnderTheirCanonicalName() {
        Config config = new Config();
        assertEquals(List.of("activedefrag", "replica-read-only"), config.withoutEffect(
            List.of("port", "activedefrag", "slave-read-only", "activedefrag", "tcp-keepalive", "replica-read-only")));
    }

    @Test
    void includeReadsNestedFilesRelativeToTheWorkingDirectory(@TempDir Path temp) throws IOException {
        Path relative = Path.of("").toAbsolutePath().relativize(temp);
        Files.writeString(temp.resolve("inner.conf"), "appendfsync always\n");
        Files.writeString(temp.resolve("middle.conf"), "include " + relative.resolve("inner.conf") + "\nhz 20\n");
        Files.writeString(temp.resolve("outer.conf"), "port 7000\ninclude " + relative.resolve("middle.conf") + "\n");
        assertEquals(List.of(new ConfigSource.Entry("port", "7000"), new ConfigSource.Entry("appendfsync", "always"),
            new ConfigSource.Entry("hz", "20")), ConfigSource.fromFile(temp.resolve("outer.conf")));
    }
}
