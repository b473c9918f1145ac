package org.ssbjca.inbound;

import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DatabaseConfig;

/**
 * The delivery a reader thread is making: its database, its session and the transaction it runs in. A bean that
 * replies through the connection factory while it handles the message, in the same transaction and to the same
 * database, has its verbs run on the reader's own connection: one branch instead of two, no two-phase commit, and no
 * lock conflict between the RECEIVE and the reply (the way an activated stored procedure RECEIVEs and SENDs in one
 * session).
 */
public final class DeliveryContext {

    private static final ThreadLocal<DeliveryContext> CURRENT = new ThreadLocal<>();

    private final DatabaseConfig database;
    private final BrokerSession session;
    private final Object transactionKey;

    private DeliveryContext(DatabaseConfig database, BrokerSession session, Object transactionKey) {
        this.database = database;
        this.session = session;
        this.transactionKey = transactionKey;
    }

    /**
     * @param database the database the caller wants
     * @param transactionKey the caller's current transaction, or null
     * @return the session of the delivery this thread is making in that transaction on that database, or null
     */
    public static BrokerSession sessionFor(DatabaseConfig database, Object transactionKey) {
        DeliveryContext c = CURRENT.get();
        if (c == null || transactionKey == null || !transactionKey.equals(c.transactionKey)
                || !database.equals(c.database)) {
            return null;
        }
        return c.session;
    }

    static void enter(DatabaseConfig database, BrokerSession session, Object transactionKey) {
        CURRENT.set(transactionKey == null ? null : new DeliveryContext(database, session, transactionKey));
    }

    static void leave() {
        CURRENT.remove();
    }
}
