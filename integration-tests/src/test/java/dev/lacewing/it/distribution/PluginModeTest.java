package dev.lacewing.it.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The test plugin (lacewing-test-plugin, never on this class path) found in each plugin mode:
 * a JPMS module layer, OSGi bundles (also loaded and unloaded while the server runs), the class path.
 */
@Tag("distribution")
class PluginModeTest {

    private static final String MODULE_LOAD_FAILED = "ERR Error loading the extension. Please check the server logs.";
    private static final String MODULE_NOT_ALLOWED = "ERR MODULE command not allowed. If the enable-module-command "
        + "option is set to \"local\", you can run it from a local connection, otherwise you need to set this option "
        + "in the configuration file, and then restart the server.";

    @TempDir
    Path directory;
    private Path plugins;

    /** A plugins directory with the distribution's plugins and the test plugin. */
    @BeforeEach
    void pluginsWithTheTestPlugin() throws IOException {
        assertTrue(Files.isRegularFile(LacewingProcess.TEST_PLUGIN), "not built: " + LacewingProcess.TEST_PLUGIN);
        plugins = Files.createDirectory(directory.resolve("plugins"));
        for (Path jar : distributionPlugins()) {
            Files.copy(jar, plugins.resolve(jar.getFileName()));
        }
        Files.copy(LacewingProcess.TEST_PLUGIN, plugins.resolve(LacewingProcess.TEST_PLUGIN.getFileName()));
    }

    @Test
    void jpmsModeFindsTheCommandPluginInThePluginsDirectory() {
        try (LacewingProcess server = LacewingProcess.start("--plugins-dir", plugins.toString(), "--threads", "2")) {
            assertEquals("jpms", server.info("server").get("lacewing_plugin_mode"));
            assertExampleCommandsWork(server);
            assertEquals(MODULE_NOT_ALLOWED, server.cli("MODULE", "LOAD", LacewingProcess.TEST_PLUGIN.toString()));
        }
    }

    @Test
    void jpmsModeCannotLoadModulesWhileRunningEvenWhereTheyAreAllowed() {
        try (LacewingProcess server = LacewingProcess.start("--enable-module-command", "yes", "--threads", "2")) {
            assertEquals(MODULE_LOAD_FAILED, server.cli("MODULE", "LOAD", LacewingProcess.TEST_PLUGIN.toString()));
            assertTrue(server.log().contains("needs plugin-mode osgi"), server.log());
        }
    }

    /** MODULE LOAD and UNLOAD are refused by default (enable-module-command no) before Felix is asked. */
    @Test
    void osgiModeRefusesModuleLoadAndUnloadByDefault() {
        String jar = LacewingProcess.TEST_PLUGIN.toString();
        try (LacewingProcess server = LacewingProcess.start("--plugin-mode", "osgi", "--plugins-dir",
            plugins.toString(), "--threads", "2")) {
            assertEquals(MODULE_NOT_ALLOWED, server.cli("MODULE", "UNLOAD", "example"));
            assertExampleCommandsWork(server);
            assertTrue(server.cli("MODULE", "LIST").startsWith("name\nexample\nver\n"), server.cli("MODULE", "LIST"));
        }
        try (LacewingProcess server = LacewingProcess.start("--plugin-mode", "osgi", "--threads", "2")) {
            assertEquals(MODULE_NOT_ALLOWED, server.cli("MODULE", "LOAD", jar));
            assertEquals("", server.cli("MODULE", "LIST"));
            assertTrue(server.cli("EXAMPLE.ECHO", "x").startsWith("ERR unknown command"));
            assertEquals("enable-module-command\nno", server.cli("CONFIG", "GET", "enable-module-command"));
        }
    }

    @Test
    void osgiModeFindsTheCommandPluginAsAServiceAndUnloadsIt() {
        try (LacewingProcess server = LacewingProcess.start("--plugin-mode", "osgi", "--plugins-dir",
            plugins.toString(), "--enable-module-command", "yes", "--threads", "2")) {
            assertEquals("osgi", server.info("server").get("lacewing_plugin_mode"));
            assertExampleCommandsWork(server);
            assertTrue(server.cli("MODULE", "LIST").startsWith("name\nexample\nver\n"), server.cli("MODULE", "LIST"));
            assertEquals("OK", server.cli("MODULE", "UNLOAD", "example"));
            assertTrue(server.cli("EXAMPLE.ECHO", "x").startsWith("ERR unknown command"), server.log());
        }
    }

    @Test
    void osgiModeLoadsListsAndUnloadsACommandPluginWhileRunning() {
        String jar = LacewingProcess.TEST_PLUGIN.toString();
        try (LacewingProcess server = LacewingProcess.start("--plugin-mode", "osgi", "--enable-module-command", "local",
            "--threads", "2")) {
            assertEquals("", server.cli("MODULE", "LIST"));
            assertTrue(server.cli("EXAMPLE.ECHO", "x").startsWith("ERR unknown command"));

            assertEquals("OK", server.cli("MODULE", "LOAD", jar));
            assertExampleCommandsWork(server);
            String list = server.cli("MODULE", "LIST");
            assertTrue(list.startsWith("name\nexample\nver\n") && list.endsWith("path\n" + jar + "\nargs"), list);

            assertEquals(MODULE_LOAD_FAILED, server.cli("MODULE", "LOAD", jar));
            assertTrue(server.log().contains("already loaded"), server.log());
            assertEquals(MODULE_LOAD_FAILED, server.cli("MODULE", "LOAD", "/no/such/plugin.jar"));

            assertEquals("OK", server.cli("MODULE", "UNLOAD", "example"));
            assertEquals("", server.cli("MODULE", "LIST"));
            assertTrue(server.cli("EXAMPLE.SUM", "1").startsWith("ERR unknown command"));
            assertEquals("ERR Error unloading module: no such module with that name",
                server.cli("MODULE", "UNLOAD", "example"));

            assertEquals("OK", server.cli("MODULE", "LOAD", jar, "alpha", "beta gamma"));
            assertEquals("again", server.cli("EXAMPLE.ECHO", "again"));
            assertEquals("alpha\nbeta gamma", server.cli("EXAMPLE.ARGS"));
            assertTrue(server.cli("MODULE", "LIST").endsWith("path\n" + jar + "\nargs\nalpha\nbeta gamma"),
                server.cli("MODULE", "LIST"));
        }
    }

    /**
     * The tiered storage, built against the API alone, loads from plugins/ as an outside jar in both modes,
     * and the settings it declares are the server's: given on the command line, listed by CONFIG GET, fixed.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jpms", "osgi"})
    void theTieredStorageLoadsFromThePluginsDirectory(String mode) throws IOException {
        Path dir = Files.createDirectory(directory.resolve("data-" + mode));
        try (LacewingProcess server = LacewingProcess.start("--plugin-mode", mode, "--plugins-dir", plugins.toString(),
            "--threads", "2", "--dir", dir.toString(), "--storage", "tiered", "--tiered-offload", "eager",
            "--tiered-min-value-size", "16")) {
            assertEquals("tiered", server.info("server").get("lacewing_storage"));
            assertEquals("OK", server.cli("SET", "key", "a value of more than 16 bytes"));
            assertEquals("a value of more than 16 bytes", server.cli("GET", "key"));
            assertEquals("1", server.info("server").get("tiered_offloaded_values"));
            assertEquals("tiered-offload\neager", server.cli("CONFIG", "GET", "tiered-offload"));
            assertEquals("tiered-min-value-size\n16", server.cli("CONFIG", "GET", "tiered-min-value-size"));
            assertEquals("ERR CONFIG SET failed (possibly related to argument 'tiered-offload') - can't set immutable "
                + "config", server.cli("CONFIG", "SET", "tiered-offload", "pressure"));
        }
    }

    /** A plugin's settings are known where the plugin is installed, chosen or not, and only there. */
    @Test
    void aPluginsSettingIsAFatalConfigErrorWithoutThePlugin() throws IOException {
        try (LacewingProcess server = LacewingProcess.start("--plugins-dir", plugins.toString(), "--threads", "2",
            "--tiered-offload", "eager")) {
            assertEquals("compact", server.info("server").get("lacewing_storage"));
            assertEquals("tiered-offload\neager", server.cli("CONFIG", "GET", "tiered-offload"));
        }
        try (Stream<Path> jars = Files.list(plugins)) {
            for (Path jar : jars.filter(jar -> jar.getFileName().toString().startsWith("lacewing-storage-tiered-"))
                .toList()) {
                Files.delete(jar);
            }
        }
        LacewingProcess.Exited exited = LacewingProcess.run("--plugins-dir", plugins.toString(), "--tiered-offload",
            "eager");
        assertEquals(1, exited.code(), exited.output());
        assertTrue(exited.output().contains("Fatal config error: 'tiered-offload eager': Bad directive or wrong number "
            + "of arguments"), exited.output());
    }

    /**
     * The settings an engine and a transport declare (shard-writes-replies, iouring-ring-size) are the
     * server's in both modes, whether their plugin is the one chosen or not.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jpms", "osgi"})
    void theEnginesAndTransportsSettingsLoadWithThem(String mode) {
        try (LacewingProcess server = LacewingProcess.start("--plugin-mode", mode, "--plugins-dir", plugins.toString(),
            "--threads", "2", "--engine", "multithread", "--shard-writes-replies", "yes", "--iouring-ring-size", "256")) {
            assertEquals("multithread", server.info("server").get("lacewing_engine"));
            assertEquals("shard-writes-replies\nyes", server.cli("CONFIG", "GET", "shard-writes-replies"));
            assertEquals("iouring-ring-size\n256", server.cli("CONFIG", "GET", "iouring-ring-size"));
            assertEquals("OK", server.cli("SET", "key", "value"));
            assertEquals("value", server.cli("GET", "key"));
        }
    }

    /** Without the shared-nothing engine or the io_uring transport installed, their settings are bad directives. */
    @ParameterizedTest
    @ValueSource(strings = {"jpms", "osgi"})
    void anEnginesOrTransportsSettingIsAFatalConfigErrorWithoutIt(String mode) throws IOException {
        try (Stream<Path> jars = Files.list(plugins)) {
            for (Path jar : jars.filter(jar -> jar.getFileName().toString().startsWith("lacewing-engine-shared-nothing-")
                || jar.getFileName().toString().startsWith("lacewing-transport-iouring-")).toList()) {
                Files.delete(jar);
            }
        }
        LacewingProcess.Exited engine = LacewingProcess.run("--plugin-mode", mode, "--plugins-dir", plugins.toString(),
            "--engine", "multithread", "--shard-writes-replies", "yes");
        assertEquals(1, engine.code(), engine.output());
        assertTrue(engine.output().contains("Fatal config error: 'shard-writes-replies yes': Bad directive or wrong "
            + "number of arguments"), engine.output());
        LacewingProcess.Exited transport = LacewingProcess.run("--plugin-mode", mode, "--plugins-dir",
            plugins.toString(), "--engine", "multithread", "--iouring-ring-size", "256");
        assertEquals(1, transport.code(), transport.output());
        assertTrue(transport.output().contains("Fatal config error: 'iouring-ring-size 256': Bad directive or wrong "
            + "number of arguments"), transport.output());
    }

    @Test
    void theSameJarsWorkOnAPlainClassPath() throws IOException {
        Path lib = LacewingProcess.DISTRIBUTION.resolve("lib");
        int port = LacewingProcess.freePort();
        String java = ProcessHandle.current().info().command().orElse("java");
        String classPath = lib + File.separator + "*" + File.pathSeparator + plugins + File.separator + "*";
        List<String> command = new ArrayList<>(List.of(java, "-cp", classPath, "dev.lacewing.launcher.Main",
            "--plugin-mode", "classpath", "--threads", "2", "--port", Integer.toString(port)));
        try (LacewingProcess server = LacewingProcess.startCommand(command, Map.of(), port)) {
            assertEquals("classpath", server.info("server").get("lacewing_plugin_mode"));
            assertExampleCommandsWork(server);
        }
    }

    private static void assertExampleCommandsWork(LacewingProcess server) {
        assertEquals("hello plugin", server.cli("EXAMPLE.ECHO", "hello plugin"));
        assertEquals("6", server.cli("EXAMPLE.SUM", "1", "2", "3"));
        assertEquals("ERR value is not an integer or out of range", server.cli("EXAMPLE.SUM", "1", "two"));
        assertEquals("Lua 5.1 k", server.cli("EVAL", "return _VERSION .. ' ' .. KEYS[1]", "1", "k"));
    }

    private static List<Path> distributionPlugins() throws IOException {
        try (Stream<Path> files = Files.list(LacewingProcess.DISTRIBUTION.resolve("plugins"))) {
            return files.filter(file -> file.toString().endsWith(".jar")).toList();
        }
    }
}
