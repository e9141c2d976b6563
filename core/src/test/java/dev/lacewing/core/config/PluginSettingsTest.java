package dev.lacewing.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.SettingSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Settings a plugin declares (api's SettingSpec): placed, checked and set as core's own. */
class PluginSettingsTest {

    private static final SettingSpec CACHE = SettingSpec.memory("demo-cache", "1mb", 1024, 1L << 30, "demo cache size")
        .withAliases("demo-cache-size");
    private static final SettingSpec MODE = SettingSpec.choice("demo-mode", "fast", List.of("fast", "safe"), "demo mode")
        .withMutability(SettingSpec.Mutability.MUTABLE);

    private static Config demo() {
        return Config.withPlugins(List.of(new Config.Declared("storage", "demo", List.of(CACHE, MODE))));
    }

    @Test
    void aPluginsSettingsFollowTheSettingThatChoosesIt() {
        List<Setting> table = demo().table();
        List<String> names = table.stream().map(Setting::name).toList();
        int storage = names.indexOf("storage");
        assertEquals(List.of("storage", "demo-cache", "demo-mode"), names.subList(storage, storage + 3));
        assertEquals(Config.TABLE.size() + 2, table.size());
    }

    @Test
    void aDeclaredSettingIsNormalizedBoundedAndSetAsCoresOwn() {
        Config config = demo();
        assertEquals("1048576", config.value("demo-cache"));
        config.initialize("demo-cache-size", "2kb");
        assertEquals("2048", config.value("demo-cache"));
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
            () -> config.initialize("demo-cache", "10"));
        assertEquals("argument must be between 1024 and 1073741824 inclusive", small.getMessage());
        config.set("demo-mode", "SAFE");
        assertEquals("safe", config.value("demo-mode"));
        assertEquals("can't set immutable config", config.refusal(config.setting("demo-cache").orElseThrow(), true));
        assertTrue(config.refusal(config.setting("demo-mode").orElseThrow(), false) == null);
    }

    @Test
    void withoutThePluginItsSettingIsUnknown() {
        assertFalse(new Config().setting("demo-cache").isPresent());
        assertThrows(IllegalArgumentException.class, () -> new Config().initialize("demo-cache", "1mb"));
    }

    @Test
    void aPluginMayNotTakeANameTheServerHas() {
        IllegalArgumentException core = assertThrows(IllegalArgumentException.class, () -> Config.withPlugins(List.of(
            new Config.Declared("storage", "demo", List.of(SettingSpec.string("maxmemory", "", "clash"))))));
        assertEquals("plugin demo declares the setting 'maxmemory', which the server already has", core.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Config.withPlugins(List.of(
            new Config.Declared("storage", "demo", List.of(CACHE)),
            new Config.Declared("engine", "other", List.of(SettingSpec.flag("demo-cache-size", "no", "clash"))))));
    }

    @Test
    void aDefaultOutsideItsOwnBoundsIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Config.withPlugins(List.of(
            new Config.Declared("storage", "demo", List.of(SettingSpec.integer("demo-count", "0", 1, 10, "count"))))));
        assertEquals("plugin demo declares 'demo-count' with the default '0': argument must be between 1 and 10 "
            + "inclusive", e.getMessage());
    }
}
