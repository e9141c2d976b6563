package dev.lacewing.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lacewing.core.config.Config;
import dev.lacewing.core.config.Setting;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.server.Plugins;
import dev.lacewing.it.resp.RespClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The settings the engines and transports declare (shard-writes-replies of the shared-nothing
 * engine, iouring-ring-size of the io_uring transport) are the server's wherever the plugin is
 * installed, chosen or not: listed after the setting that chooses the plugin, given at start-up,
 * listed by CONFIG GET, refused by CONFIG SET as fixed, bounded as declared.
 */
class EngineAndTransportSettingsTest {

    @Test
    void eachPluginsSettingFollowsTheSettingThatChoosesIt() {
        List<String> names = Config.table(Plugins.settingsOnClassPath()).stream().map(Setting::name).toList();
        assertEquals("shard-writes-replies", names.get(names.indexOf("engine") + 1));
        assertEquals("iouring-ring-size", names.get(names.indexOf("transport") + 1));
        assertEquals(-1, Config.TABLE.stream().map(Setting::name).toList().indexOf("shard-writes-replies"),
            "core no longer has the engine's setting");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theDeclaredSettingsAreGivenListedAndFixed(Target target) {
        try (LacewingServer server = Servers.builder(target).set("shard-writes-replies", "YES")
                .set("iouring-ring-size", "256").start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("*2\r\n$20\r\nshard-writes-replies\r\n$3\r\nyes\r\n",
                client.call("CONFIG", "GET", "shard-writes-replies"));
            assertEquals("*2\r\n$17\r\niouring-ring-size\r\n$3\r\n256\r\n",
                client.call("CONFIG", "GET", "iouring-ring-size"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'iouring-ring-size') - can't set "
                + "immutable config\r\n", client.call("CONFIG", "SET", "iouring-ring-size", "512"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'shard-writes-replies') - can't set "
                + "immutable config\r\n", client.call("CONFIG", "SET", "shard-writes-replies", "no"));
            // Only the engine that hops commands writes replies where they ran.
            assertEquals(target.engine().equals("shared-nothing"), server.state().engine().writesRepliesWhereRun());
        }
    }

    @Test
    void theRingSizeDefaultsToNettysOwn() {
        try (LacewingServer server = LacewingServer.builder().port(0).set("save", "")
                .set("dir", Servers.freshDirectory().toString()).start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("*2\r\n$17\r\niouring-ring-size\r\n$3\r\n128\r\n",
                client.call("CONFIG", "GET", "iouring-ring-size"));
            assertEquals("*2\r\n$20\r\nshard-writes-replies\r\n$2\r\nno\r\n",
                client.call("CONFIG", "GET", "shard-writes-replies"));
        }
    }

    @Test
    void aRingSizeOutOfBoundsIsRefusedAtStartUp() {
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
            () -> LacewingServer.builder().port(0).set("iouring-ring-size", "8").start().close());
        assertEquals("'iouring-ring-size 8': argument must be between 16 and 4096 inclusive", small.getMessage());
    }
}
