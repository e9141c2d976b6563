package dev.lacewing.api;

/** Server-wide services a command may use. */
public interface Server {

    Settings settings();

    /** Lacewing's version. */
    String version();
}
