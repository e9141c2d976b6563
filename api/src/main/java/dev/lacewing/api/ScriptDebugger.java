package dev.lacewing.api;

import java.util.List;

/**
 * The client's side of a script debugging session (Redis's LDB, after SCRIPT DEBUG YES or SYNC): the
 * runtime sends the debugger's log lines and reads the client's debugger commands through it.
 *
 * <p>Thread rule: used by the thread running the script, during {@link ScriptRuntime#debug} only.
 */
public interface ScriptDebugger {

    /** Sends {@code lines} as one array of status replies (ldbSendLogs): newlines become spaces. */
    void send(List<String> lines);

    /**
     * Waits for the client's next debugger command and returns its words (a RESP array of bulk
     * strings); null once the client has gone. Throws {@link IllegalArgumentException} with the text
     * the script then fails with ({@code protocol error}, {@code max client buffer reached}) when
     * the input is not such an array.
     */
    byte[][] read();
}
