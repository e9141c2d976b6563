package dev.lacewing.api;

import java.util.List;

/**
 * A plugin that declares settings of its own: the storage, engine and transport providers. The
 * server asks every provider it found at start-up (whether chosen or not) before it reads the
 * configuration, so the settings of every installed plugin are known from the first line of
 * redis.conf on, as core's are. A command module takes its arguments from MODULE LOAD instead, as
 * a Redis module does.
 *
 * <p>Thread rule: called once, on the thread that starts the server; the list must not change.
 */
public interface DeclaresSettings {

    /** The settings this plugin reads through {@link Settings}; none by default. */
    default List<SettingSpec> settings() {
        return List.of();
    }
}
