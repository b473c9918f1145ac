package org.ssbjca.backend;

import java.util.List;
import java.util.Locale;

/**
 * What to do about a message waiting in the transmission queue, from its {@code transmission_status}: the common
 * texts of SQL Server (English; matched by a phrase each, since the full texts carry names and error numbers) and
 * the portable schema's. An unknown text is named as such, with the check that applies to every case.
 */
public final class TransmissionStatus {

    private record Rule(String phrase, String action) {
    }

    private static final List<Rule> RULES = List.of(
            new Rule("target service name could not be found", "no service of that name where the message goes:"
                    + " create the service there, or a route to it (CREATE ROUTE ... SERVICE_NAME, ADDRESS), or fix"
                    + " the name the sender uses; the message is sent once the route exists"),
            new Rule("master key", "the database has no master key, or one the server cannot open (a database"
                    + " restored on another server): CREATE MASTER KEY ENCRYPTION BY PASSWORD = '...', or OPEN MASTER"
                    + " KEY and ALTER MASTER KEY ADD ENCRYPTION BY SERVICE MASTER KEY; or begin dialogs WITH"
                    + " ENCRYPTION = OFF when both services are in this database"),
            new Rule("is disabled", "the queue of the target service is disabled (by poison detection or by hand):"
                    + " enable it (the activation's EnableQueue operation, or ALTER QUEUE ... WITH STATUS = ON); the"
                    + " message is then put on it"),
            new Rule("connection attempt failed", "the broker cannot reach the remote endpoint: check the route's"
                    + " ADDRESS, the remote Service Broker endpoint (sys.service_broker_endpoints, STATE = STARTED)"
                    + " and the network (its TCP port, 4022 by default)"),
            new Rule("error message on this conversation", "the other side ended the conversation with an error: the"
                    + " message will never be sent; END CONVERSATION on this side (the listed conversation)"),
            new Rule("certificate", "dialog security failed: check the certificates of the users the remote service"
                    + " binding names (CREATE REMOTE SERVICE BINDING) and their expiry dates"),
            new Rule("permission", "the sending side lacks SEND on the target service: GRANT SEND ON SERVICE::..."
                    + " TO the user the message arrives as (public, for a dialog without security)"),
            new Rule("broker is disabled", "Service Broker is disabled in the target database: ALTER DATABASE ... SET"
                    + " ENABLE_BROKER (see the start-up refusal's text for what it costs)"));

    private TransmissionStatus() {
    }

    /**
     * Returns what it means and what to run.
     *
     * @param status a {@code transmission_status}, possibly null or blank
     */
    public static String explain(String status) {
        if (status == null || status.isBlank()) {
            return "not tried yet: the broker has not attempted to send it (a message just sent, or one behind others"
                    + " to the same service); it is stuck only if it stays, with the others waiting for that service";
        }
        String text = status.toLowerCase(Locale.ROOT);
        for (Rule r : RULES) {
            if (text.contains(r.phrase())) {
                return r.action();
            }
        }
        return "a status the adapter does not know: read it in the server's language; the route (sys.routes), the"
                + " target's queue (sys.service_queues.is_receive_enabled) and the database's broker"
                + " (sys.databases.is_broker_enabled) are the usual causes";
    }
}
