package org.ssbjca.console;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The console's log messages, category {@code org.ssbjca.console}, with ids in the adapter's range (the table of
 * docs/reference/messages.md lists them with the adapter's). The console shares no class with the adapter, so it has
 * its own catalogue; every line goes through {@link #log}.
 */
final class ConsoleLog {

    private static final Logger LOG = Logger.getLogger("org.ssbjca.console");
    private static final int MAX_BODY = 300;

    private ConsoleLog() {
    }

    /**
     * A change an operator asked for through the API (every POST, PUT and DELETE that reached it), with its answer.
     *
     * @param user the console's authenticated user, or null when none
     * @param method the HTTP method
     * @param path the API path as sent (percent-encoded)
     * @param body the request's JSON body, or null when it had none
     * @param status the answer's HTTP status
     */
    static void change(String user, String method, String path, String body, int status) {
        log(Level.INFO, 150, "console user %s: %s %s%s, answered %d", user == null ? "(none)" : user, method, path,
                body == null ? "" : " " + shortened(body), status);
    }

    /**
     * A dead letter's body read whole through the console (a download): reading a message is recorded as a change is.
     *
     * @param user the console's authenticated user, or null when none
     * @param activation the activation
     * @param id the dead letter
     * @param bytes the body's size
     */
    static void exported(String user, String activation, long id, int bytes) {
        log(Level.INFO, 282, "console user %s exported the body of dead letter %d of %s (%d bytes)",
                user == null ? "(none)" : user, id, activation, bytes);
    }

    /**
     * The charts' sampler could not read the MXBeans; logged once until a sampling succeeds again, and the charts
     * have a gap meanwhile.
     *
     * @param e what failed
     */
    static void samplingFailed(RuntimeException e) {
        log(Level.WARNING, 283, "the console's charts could not read the activations, their history has a gap until"
                + " a reading succeeds: %s", e);
    }

    /** The server gave the console no managed scheduled executor: the page works, its charts stay empty. */
    static void noScheduler() {
        log(Level.WARNING, 284, "the console was given no managed scheduled executor, its charts stay empty");
    }

    private static String shortened(String body) {
        return body.length() <= MAX_BODY ? body : body.substring(0, MAX_BODY) + "... (" + body.length() + " chars)";
    }

    private static void log(Level level, int id, String format, Object... arguments) {
        if (LOG.isLoggable(level)) {
            LOG.log(level, String.format("SSBJCA%04d: ", id) + String.format(format, arguments));
        }
    }
}
