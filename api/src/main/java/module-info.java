/**
 * The stable plugin API of Lacewing: what a storage engine, a transport, a threading strategy or
 * a command plugin implements, and the request, reply and keyspace types they exchange. It
 * depends on nothing outside the JDK.
 */
module dev.lacewing.api {
    exports dev.lacewing.api;
    exports dev.lacewing.api.storage;
}
