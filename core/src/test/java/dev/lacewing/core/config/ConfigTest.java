package dev.lacewing.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The protected actions of Redis 7.0: which clients CONFIG SET lets change a setting, and which
 * may run a protected command, by enable-protected-configs and enable-*-command; and the settings
 * whose values Lacewing alone checks.
 */
class ConfigTest {

    private static final boolean LOCAL = true;
    private static final boolean REMOTE = false;

    /** Lacewing's settings and Redis's protected dir, which Lacewing does not have. */
    private static Config withProtectedDir(String enableProtectedConfigs) {
        List<Setting> table = new ArrayList<>(Config.TABLE);
        table.add(new Setting("dir", List.of(), "/tmp", Setting.Mutability.PROTECTED, Setting.Type.STRING,
            "the working directory"));
        Config config = new Config(table);
        config.initialize("enable-protected-configs", enableProtectedConfigs);
        return config;
    }

    @Test
    void theDefaultThreadCountLeavesAQuarterOfTheCoresAndIsAtLeastOne() {
        assertEquals(List.of(1, 1, 2, 3, 6, 12, 48),
            List.of(1, 2, 3, 4, 8, 16, 64).stream().map(Config::defaultThreads).toList());
        assertEquals(Integer.toString(Config.defaultThreads(Runtime.getRuntime().availableProcessors())),
            new Config().value("threads"));
    }

    @Test
    void aProtectedSettingIsRefusedByDefault() {
        Config config = withProtectedDir("no");
        Setting dir = config.setting("dir").orElseThrow();
        assertEquals("can't set protected config", config.refusal(dir, LOCAL));
        assertEquals("can't set protected config", config.refusal(dir, REMOTE));
    }

    @Test
    void aProtectedSettingIsAllowedByYesAndToLocalClientsByLocal() {
        Setting dir = withProtectedDir("yes").setting("dir").orElseThrow();
        assertNull(withProtectedDir("yes").refusal(dir, REMOTE));
        assertNull(withProtectedDir("local").refusal(dir, LOCAL));
        assertEquals("can't set protected config", withProtectedDir("local").refusal(dir, REMOTE));
    }

    @Test
    void aFixedSettingIsImmutableWhateverEnableProtectedConfigsSays() {
        Config config = withProtectedDir("yes");
        for (String name : List.of("enable-protected-configs", "enable-module-command", "enable-debug-command")) {
            assertEquals("can't set immutable config", config.refusal(config.setting(name).orElseThrow(), LOCAL));
        }
        assertNull(config.refusal(config.setting("maxmemory").orElseThrow(), REMOTE));
    }

    @Test
    void theKeyspaceLayoutIsCompactAloneAndTheRemovedObjectsLayoutIsRefusedWithWhy() {
        Config config = new Config();
        assertEquals("compact", config.value("keyspace-layout"));
        config.initialize("keyspace-layout", "COMPACT");
        assertEquals("compact", config.value("keyspace-layout"));
        IllegalArgumentException removed = assertThrows(IllegalArgumentException.class,
            () -> config.initialize("keyspace-layout", "objects"));
        assertEquals("no keyspace layout named 'objects' (removed: see docs/architecture.md)", removed.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> config.initialize("keyspace-layout", "tiered"));
        assertEquals("no keyspace layout named 'tiered'", unknown.getMessage());
    }

    @Test
    void theGatesDefaultToNoAndTakeNoYesOrLocalInAnyCase() {
        Config config = new Config();
        for (String name : List.of("enable-protected-configs", "enable-module-command", "enable-debug-command")) {
            assertEquals("no", config.value(name));
            config.initialize(name, "LOCAL");
            assertEquals("local", config.value(name));
            IllegalArgumentException invalid = assertThrows(IllegalArgumentException.class,
                () -> config.initialize(name, "maybe"));
            assertEquals("argument(s) must be one of the following: no, yes, local", invalid.getMessage());
        }
    }

    @Test
    void aProtectedCommandRunsAsItsEnableSettingAllows() {
        Config config = new Config();
        assertFalse(config.allowsProtectedCommand("module", LOCAL));
        config.initialize("enable-module-command", "local");
        assertTrue(config.allowsProtectedCommand("MODULE", LOCAL));
        assertFalse(config.allowsProtectedCommand("module", REMOTE));
        assertFalse(config.allowsProtectedCommand("debug", LOCAL), "enable-debug-command is apart");
        config.initialize("enable-debug-command", "yes");
        assertTrue(config.allowsProtectedCommand("debug", REMOTE));
        assertFalse(config.allowsProtectedCommand("nosuch", LOCAL), "no enable-nosuch-command: never");
    }

    @Test
    void anApplyStepRunsOncePerConfigSetAndItsRefusalNamesTheFirstSettingOfItsGroup() {
        Config config = new Config();
        List<String> applied = new ArrayList<>();
        config.onApply(name -> name.startsWith("tls-"), () -> {
            applied.add(config.value("tls-cert-file") + "+" + config.value("tls-key-file"));
            if (config.value("tls-key-file").isEmpty()) {
                throw new IllegalArgumentException("no key");
            }
        });
        config.set("tls-cert-file", "a.crt");
        config.set("tls-key-file", "a.key");
        config.apply(List.of("maxmemory", "tls-cert-file", "tls-key-file"));
        assertEquals(List.of("a.crt+a.key"), applied, "the pair is applied together, once");

        config.apply(List.of("maxmemory"));
        assertEquals(1, applied.size(), "no step for settings outside its group");

        config.set("tls-key-file", "");
        Config.ApplyFailure failure = assertThrows(Config.ApplyFailure.class,
            () -> config.apply(List.of("tls-key-file", "tls-cert-file")));
        assertEquals("tls-key-file", failure.setting());
        assertEquals("no key", failure.getMessage());
    }

    @Test
    void getLongReadsEachSetAndRestoredValueThoughItKeepsParsedValues() {
        Config config = new Config();
        assertEquals(4096, config.getLong("stream-node-max-bytes", -1));
        config.set("stream-node-max-bytes", "8kb");
        assertEquals(8192, config.getLong("stream-node-max-bytes", -1));
        config.restore("stream-node-max-bytes", "100");
        assertEquals(100, config.getLong("stream-node-max-bytes", -1));
        config.initialize("stream-node-max-entries", "7");
        assertEquals(7, config.getLong("stream-node-max-entries", -1));
        assertEquals(-1, config.getLong("no-such-setting", -1));
    }
}
