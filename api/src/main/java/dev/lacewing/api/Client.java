package dev.lacewing.api;

/** The connection a command came from, as CLIENT and HELLO see it. */
public interface Client {

    long id();

    int database();

    void selectDatabase(int index);

    String name();

    void setName(String name);

    int protocol();

    void setProtocol(int protocol);

    boolean authenticated();

    void setAuthenticated(boolean authenticated);

    /** Closes the connection once the pending replies are written (QUIT, CLIENT KILL). */
    void closeAfterReply();
}
