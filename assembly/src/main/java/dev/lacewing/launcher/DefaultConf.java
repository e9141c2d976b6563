package dev.lacewing.launcher;

import dev.lacewing.core.config.Config;
import dev.lacewing.core.config.Setting;
import dev.lacewing.core.server.Plugins;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes the distribution's conf/lacewing.conf from core's settings table and those the plugins on
 * the class path declare ({@link #settings}), at build time, so that the file documents every setting
 * with its real default and cannot fall behind the table.
 */
public final class DefaultConf {

    /** Defaults that depend on the machine the server runs on, not the one that built it. */
    private static final Map<String, String> MACHINE_DEFAULTS = Map.of("threads", "<3/4 of the cores, at least 1>", "dir", "./");

    private DefaultConf() {
    }

    /** {@code DefaultConf <output file>} */
    public static void main(String[] args) throws IOException {
        Path output = Path.of(args[0]);
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, render(), StandardCharsets.UTF_8);
    }

    /** Core's settings with those of every plugin on the class path (the distribution's), in the server's order. */
    static List<Setting> settings() {
        return Config.table(Plugins.settingsOnClassPath());
    }

    static String render() {
        List<Setting> settings = settings();
        StringBuilder text = new StringBuilder("""
            # Lacewing configuration file (redis.conf syntax).
            #
            #   bin/lacewing-server conf/lacewing.conf [--name value ...]
            #
            # One setting per line: its name, then its value. '#' starts a comment; a value holding
            # blanks may be quoted; 'include other.conf' reads another file in place. Options given
            # as --name value after the file override it.
            #
            # Every setting Lacewing knows is listed below with its default, commented out: remove
            # the '#' in front of a setting to change it. Settings marked 'runtime' may also be
            # changed while the server runs, with CONFIG SET.
            #
            # Sizes take units as in Redis: 1k = 1000 bytes, 1kb = 1024 bytes, m/mb and g/gb alike.
            # Relative paths start at the distribution's directory for plugins-dir, at the directory
            # the server was started in for dir.
            #
            # JVM options do not belong here: set LACEWING_JAVA_OPTS (see bin/lacewing-server).
            """);
        for (Setting setting : settings) {
            if (!setting.effective()) {
                continue;
            }
            text.append('\n');
            text.append("# ").append(setting.description()).append('\n');
            text.append("# (").append(switch (setting.mutability()) {
                case MUTABLE -> "runtime";
                case PROTECTED -> "runtime where enable-protected-configs allows";
                case FIXED -> "fixed at start-up";
            });
            if (!setting.aliases().isEmpty()) {
                text.append("; also named ").append(String.join(", ", setting.aliases()));
            }
            text.append(")\n");
            text.append("# ").append(setting.name()).append(' ').append(defaultValue(setting)).append('\n');
        }
        text.append("""

            # Redis's other directives, with their Redis defaults, are %s:
            # CONFIG GET lists them, and the server logs at start-up which ones were set.
            """.formatted(Config.NO_EFFECT));
        for (Setting setting : settings) {
            if (!setting.effective()) {
                text.append("# ").append(setting.name()).append(' ').append(defaultValue(setting)).append('\n');
            }
        }
        return text.toString();
    }

    static String defaultValue(Setting setting) {
        String machineDefault = MACHINE_DEFAULTS.get(setting.name());
        if (machineDefault != null) {
            return machineDefault;
        }
        String value = setting.defaultValue();
        if (value.isEmpty()) {
            return "\"\"";
        }
        if (setting.type() == Setting.Type.MEMORY) {
            long bytes = Long.parseLong(value);
            String[] units = {"gb", "mb", "kb"};
            long[] sizes = {1L << 30, 1L << 20, 1L << 10};
            for (int i = 0; i < units.length; i++) {
                if (bytes != 0 && bytes % sizes[i] == 0) {
                    return bytes / sizes[i] + units[i];
                }
            }
        }
        return value;
    }
}
