package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.BlockedCommand;
import dev.lacewing.api.Client;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.persistence.aof.AofLoader;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The AOF's fake client (aof.c's createAOFClient): runs each request read from the file through
 * the command table, in the database its SELECTs chose, with a reply that is thrown away.
 *
 * <p>Thread rule: start-up only, on the thread holding every database.
 */
final class AofReplay implements CoreContext, Client {

    private final ServerState server;
    private final RespWriter writer = new RespWriter();
    private final ByteBuf scratch = Unpooled.buffer(256);
    private List<Keyspace> databases;
    private Arguments arguments;
    private int database;

    private AofReplay(ServerState server) {
        this.server = server;
        writer.target(scratch);
    }

    static AofLoader loader(ServerState server) {
        AofReplay replay = new AofReplay(server);
        return new AofLoader(replay::run);
    }

    private void run(List<Keyspace> databases, int database, byte[][] argv) {
        Command<CoreContext> command = server.commands().lookup(argv[0], 0, argv[0].length);
        if (command == null) {
            throw new IllegalStateException("Unknown command '" + new String(argv[0], StandardCharsets.UTF_8)
                + "' reading the append only file");
        }
        if (!command.spec().acceptsArgumentCount(argv.length)) {
            throw new IllegalStateException("Bad file format reading the append only file: wrong number of arguments "
                + "for '" + command.spec().name() + "'");
        }
        this.databases = databases;
        this.database = database;
        this.arguments = new ScriptRun.ArgvArguments(argv);
        scratch.clear();
        command.execute(this);
    }

    @Override
    public Arguments arguments() {
        return arguments;
    }

    @Override
    public RespWriter reply() {
        return writer;
    }

    @Override
    public Keyspace keyspace() {
        return databases.get(database);
    }

    @Override
    public Keyspace keyspace(int index) {
        return databases.get(index);
    }

    @Override
    public int databases() {
        return databases.size();
    }

    @Override
    public void swapDatabases(int first, int second) {
        server.engine().swapDatabases(first, second);
    }

    @Override
    public long now() {
        return System.currentTimeMillis();
    }

    @Override
    public Client client() {
        return this;
    }

    @Override
    public ClientConnection connection() {
        return null;
    }

    @Override
    public ServerState server() {
        return server;
    }

    /** A blocking command in the file answers at once, as it did for the client that ran it. */
    @Override
    public void block(long deadline, int[] keyArguments, int destinationArgument, BlockedCommand command) {
        writer.nullArray();
    }

    @Override
    public long id() {
        return AofLoader.REPLAY_CLIENT_ID;
    }

    @Override
    public int database() {
        return database;
    }

    @Override
    public void selectDatabase(int index) {
        database = index;
    }

    @Override
    public String name() {
        return "";
    }

    @Override
    public void setName(String name) {
    }

    @Override
    public int protocol() {
        return 2;
    }

    @Override
    public void setProtocol(int protocol) {
    }

    @Override
    public boolean authenticated() {
        return true;
    }

    @Override
    public void setAuthenticated(boolean authenticated) {
    }

    @Override
    public void closeAfterReply() {
    }
}
