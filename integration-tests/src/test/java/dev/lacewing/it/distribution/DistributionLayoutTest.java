package dev.lacewing.it.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.config.Config;
import dev.lacewing.core.config.Setting;
import dev.lacewing.core.server.Plugins;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What `mvn package` leaves in assembly/target: the unpacked distribution and its archive. */
@Tag("distribution")
class DistributionLayoutTest {

    private static final Path DISTRIBUTION = LacewingProcess.DISTRIBUTION;

    @Test
    void theServerScriptIsExecutableAndTheArchiveLiesBeside() {
        assertTrue(Files.isExecutable(DISTRIBUTION.resolve("bin/lacewing-server")), DISTRIBUTION.toString());
        Path archive = Path.of(System.getProperty("lacewing.archive",
            DISTRIBUTION.resolveSibling("lacewing-0.1.0-SNAPSHOT.tar.gz").toString()));
        assertTrue(Files.isRegularFile(archive), archive.toString());
    }

    @Test
    void libHoldsTheApiTransportSpiCoreLauncherNettyAndFelix() throws IOException {
        List<String> lib = names("lib");
        for (String prefix : List.of("lacewing-api-", "lacewing-transport-spi-", "lacewing-core-", "lacewing-launcher-",
            "netty-common-",
            "netty-transport-4", "netty-transport-classes-epoll-", "netty-transport-native-epoll-",
            "netty-transport-classes-io_uring-", "netty-transport-native-io_uring-", "org.apache.felix.framework-")) {
            assertTrue(lib.stream().anyMatch(name -> name.startsWith(prefix)), prefix + " missing from " + lib);
        }
    }

    @Test
    void theLoadToolRunsFromItsOwnDirectoryBelowLib() throws Exception {
        assertTrue(Files.isExecutable(DISTRIBUTION.resolve("bin/lacewing-benchmark")));
        List<String> tool = names("lib/benchmark");
        assertTrue(tool.stream().anyMatch(name -> name.startsWith("lacewing-benchmarks-")), "tool missing from " + tool);
        assertTrue(names("lib").stream().noneMatch(name -> name.startsWith("lacewing-benchmarks-")
            || name.startsWith("jmh-")), "the server's module path holds the tool");
        assertTrue(names("lib").stream().anyMatch(name -> name.startsWith("HdrHistogram-")),
            "latency tracking's HdrHistogram missing from lib");
        Process help = new ProcessBuilder(DISTRIBUTION.resolve("bin/lacewing-benchmark").toString(), "--help")
            .redirectErrorStream(true).start();
        String output = new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(help.waitFor() == 0 && output.contains("--key-pattern=SET:GET"), output);
    }

    @Test
    void pluginsHoldTheEnginesStorageTransportsAndScripting() throws IOException {
        List<String> plugins = names("plugins");
        for (String prefix : List.of("lacewing-engine-shared-nothing-", "lacewing-engine-multithread-",
            "lacewing-storage-compact-", "lacewing-storage-tiered-", "lacewing-transport-epoll-", "lacewing-transport-iouring-",
            "lacewing-script-lua-")) {
            assertTrue(plugins.stream().anyMatch(name -> name.startsWith(prefix)), prefix + " missing from " + plugins);
        }
        assertTrue(plugins.stream().noneMatch(name -> name.startsWith("lacewing-test-plugin")
            || name.startsWith("lacewing-storage-tck") || name.startsWith("lacewing-transport-spi")), plugins.toString());
    }

    /**
     * A transport plugin builds against the API, the transport SPI and Netty, not core: neither its
     * module descriptor (JPMS mode) nor its bundle's Import-Package (OSGi mode) names core.
     */
    @Test
    void transportPluginsDependOnTheTransportSpiNotCore() throws IOException {
        List<String> transports = names("plugins").stream().filter(name -> name.startsWith("lacewing-transport-")).toList();
        assertEquals(2, transports.size(), transports.toString());
        for (String name : transports) {
            try (JarFile jar = new JarFile(DISTRIBUTION.resolve("plugins").resolve(name).toFile())) {
                ModuleDescriptor descriptor;
                try (InputStream in = jar.getInputStream(jar.getEntry("module-info.class"))) {
                    descriptor = ModuleDescriptor.read(in);
                }
                Set<String> requires = descriptor.requires().stream().map(ModuleDescriptor.Requires::name)
                    .collect(Collectors.toSet());
                assertTrue(requires.contains("dev.lacewing.transport.spi"), name + " requires " + requires);
                assertFalse(requires.contains("dev.lacewing.core"), name + " requires core: " + requires);
                String imports = jar.getManifest().getMainAttributes().getValue("Import-Package");
                assertTrue(imports.contains("dev.lacewing.transport.spi"), name + " imports " + imports);
                assertFalse(imports.contains("dev.lacewing.core"), name + " imports core: " + imports);
            }
        }
    }

    @Test
    void theConfFileDocumentsEverySettingWithItsDefault() throws IOException {
        String conf = Files.readString(DISTRIBUTION.resolve("conf/lacewing.conf"));
        for (Setting setting : Config.table(Plugins.settingsOnClassPath())) {
            assertTrue(conf.contains("\n# " + setting.name() + " ") && conf.contains(setting.description()),
                setting.name() + " is not documented in conf/lacewing.conf");
        }
    }

    private static List<String> names(String directory) throws IOException {
        try (Stream<Path> files = Files.list(DISTRIBUTION.resolve(directory))) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }
}
