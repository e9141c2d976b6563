package dev.lacewing.it.server;

import dev.lacewing.junit.LacewingTarget;

/** One engine and transport combination the suite runs against. */
public record Target(String engine, String transport) {

    /** The same combination as lacewing-junit's {@link dev.lacewing.junit.LacewingMatrix} names it. */
    public static Target of(LacewingTarget target) {
        return new Target(target.engine().settingValue(), target.transport().settingValue());
    }

    @Override
    public String toString() {
        return engine + "/" + transport;
    }
}
