package dev.lacewing.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigurationDocTest {

    @Test
    void docsConfigurationListsEverySettingAsTheTableHasIt() throws IOException {
        Path page = Path.of("..", "docs", "configuration.md");
        String text = Files.readString(page, StandardCharsets.UTF_8);
        assertEquals(ConfigurationDoc.withTables(text), text,
            "docs/configuration.md is behind core's settings table; regenerate it with: "
                + "mvn -B -q -o -pl assembly -am compile && java -cp \"assembly/target/classes:core/target/classes:api/target/classes\" "
                + "dev.lacewing.launcher.ConfigurationDoc docs/configuration.md");
    }
}
