package dev.lacewing.junit;

/** The engine and transport one {@link LacewingMatrix} invocation runs against. */
public record LacewingTarget(LacewingTest.Engine engine, LacewingTest.Transport transport) {

    /** {@code engine/transport} by their setting values, e.g. {@code shared-nothing/epoll}: the invocation's display name. */
    @Override
    public String toString() {
        return engine.settingValue() + "/" + transport.settingValue();
    }
}
