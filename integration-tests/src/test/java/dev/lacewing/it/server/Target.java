package dev.lacewing.it.server;

import dev.lacewing.junit.LacewingTarget;

/** One engine, transport and storage combination the suite runs against. */
public record Target(String engine, String transport, String storage) {

    /** An engine and transport on the compact storage, the server's default. */
    public Target(String engine, String transport) {
        this(engine, transport, "compact");
    }

    /** The same combination as lacewing-junit's {@link dev.lacewing.junit.LacewingMatrix} names it. */
    public static Target of(LacewingTarget target) {
        return new Target(target.engine().settingValue(), target.transport().settingValue(),
            target.storage().settingValue());
    }

    @Override
    public String toString() {
        return engine + "/" + transport + "/" + storage;
    }
}
