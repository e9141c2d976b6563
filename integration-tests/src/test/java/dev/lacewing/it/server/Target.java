package dev.lacewing.it.server;

/** One engine and transport combination the suite runs against. */
public record Target(String engine, String transport) {

    @Override
    public String toString() {
        return engine + "/" + transport;
    }
}
