package dev.lacewing.core.server;

import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.bitmap.BitmapCommands;
import dev.lacewing.core.command.generic.KeyCommands;
import dev.lacewing.core.command.geo.GeoCommands;
import dev.lacewing.core.command.hash.HashCommands;
import dev.lacewing.core.command.hyperloglog.HyperLogLogCommands;
import dev.lacewing.core.command.list.ListCommands;
import dev.lacewing.core.command.pubsub.PubSubCommands;
import dev.lacewing.core.command.scripting.FunctionCommands;
import dev.lacewing.core.command.scripting.ScriptingCommands;
import dev.lacewing.core.command.server.AclCommands;
import dev.lacewing.core.command.server.ConnectionCommands;
import dev.lacewing.core.command.server.PersistenceCommands;
import dev.lacewing.core.command.server.ServerCommands;
import dev.lacewing.core.command.server.DiagnosticCommands;
import dev.lacewing.core.command.set.SetCommands;
import dev.lacewing.core.command.stream.StreamCommands;
import dev.lacewing.core.command.string.StringCommands;
import dev.lacewing.core.command.transaction.TransactionCommands;
import dev.lacewing.core.command.zset.SortedSetCommands;

/**
 * Every command family core ships, in one place: the server's table, COMMAND metadata checks and
 * the compatibility table are all built from this list, so a new family is added once, here.
 */
public final class CoreCommands {

    private CoreCommands() {
    }

    /** A table of every built-in command, owned by {@link CommandTable.Builder#CORE}. */
    public static CommandTable<CoreContext> table() {
        return table(Scripts.none());
    }

    /** The table of a server whose scripts (EVAL's and SCRIPT's) are {@code scripts}. */
    public static CommandTable<CoreContext> table(Scripts scripts) {
        CommandTable.Builder<CoreContext> builder = new CommandTable.Builder<>(CommandTable.Builder.CORE);
        StringCommands.register(builder);
        HashCommands.register(builder);
        SetCommands.register(builder);
        ListCommands.register(builder);
        SortedSetCommands.register(builder);
        StreamCommands.register(builder);
        GeoCommands.register(builder);
        BitmapCommands.register(builder);
        HyperLogLogCommands.register(builder);
        KeyCommands.register(builder);
        ConnectionCommands.register(builder);
        AclCommands.register(builder);
        PubSubCommands.register(builder);
        ServerCommands.register(builder);
        PersistenceCommands.register(builder);
        DiagnosticCommands.register(builder);
        TransactionCommands.register(builder);
        ScriptingCommands.register(builder, scripts);
        FunctionCommands.register(builder, scripts);
        return builder.build();
    }
}
