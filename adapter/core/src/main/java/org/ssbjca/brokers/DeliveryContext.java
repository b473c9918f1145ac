package org.ssbjca.brokers;

import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DatabaseConfig;

/**
 * The delivery a reader thread is making: its database, its session and the transaction it runs in. A bean that
 * replies through the connection factory while it handles the message, in the same transaction and to the same
 * database, has its verbs run on the reader's own connection: no lock conflict between the RECEIVE and the reply (the
 * way an activated stored procedure RECEIVEs and SENDs in one session). A bean without a JTA transaction
 * ({@code NOT_SUPPORTED}) delivered in the reader's local transaction is in that delivery when it calls outside any
 * transaction: its verbs join the local transaction, which commits or rolls back with the RECEIVE.
 */
public final class DeliveryContext {

    /** The key of a delivery in the reader's local transaction: the bean runs without a JTA transaction. */
    public static final Object NO_TRANSACTION = new Object() {
        @Override
        public String toString() {
            return "no JTA transaction (the reader's local transaction)";
        }
    };

    private static final ThreadLocal<DeliveryContext> CURRENT = new ThreadLocal<>();

    private final DatabaseConfig database;
    private final BrokerSession session;
    private final Object transactionKey;
    private final Consumer<UUID> beforeEnd;
    private final BooleanSupplier branchActive;

    private DeliveryContext(DatabaseConfig database, BrokerSession session, Object transactionKey,
            Consumer<UUID> beforeEnd, BooleanSupplier branchActive) {
        this.database = database;
        this.session = session;
        this.transactionKey = transactionKey;
        this.beforeEnd = beforeEnd;
        this.branchActive = branchActive;
    }

    /**
     * Returns the session of the delivery this thread is making in that transaction (or, without one, in the reader's
     * local transaction) on that database, or null.
     *
     * @param database the database the caller wants
     * @param transactionKey the caller's current transaction, or null when it has none
     * @throws BrokerException if it is that delivery, in a JTA transaction whose branch on the reader's connection
     *         has ended while the bean runs: the transaction manager rolled it back (its timeout passed), and the
     *         connection, out of it, would commit each statement on its own
     */
    public static BrokerSession sessionFor(DatabaseConfig database, Object transactionKey) {
        DeliveryContext c = CURRENT.get();
        Object key = transactionKey == null ? NO_TRANSACTION : transactionKey;
        if (c == null || !key.equals(c.transactionKey) || !database.equals(c.database)) {
            return null;
        }
        if (c.branchActive != null && !c.branchActive.getAsBoolean()) {
            throw new BrokerException("the delivery's transaction is no longer active: the transaction manager ended"
                    + " it while the bean ran (rolled back when its timeout passed); nothing more can be done in it,"
                    + " and the message will be delivered again");
        }
        return c.session;
    }

    /**
     * Marks this thread as making a delivery (the readers call it around the bean's call).
     *
     * @param database the delivery's database
     * @param session the reader's session
     * @param transactionKey the delivery's JTA transaction, {@link #NO_TRANSACTION} for a delivery in the reader's
     *        local transaction, or null when the bean's verbs must not share the reader's session
     */
    public static void enter(DatabaseConfig database, BrokerSession session, Object transactionKey) {
        enter(database, session, transactionKey, null, null);
    }

    /**
     * As {@link #enter(DatabaseConfig, BrokerSession, Object)}, with what the reader does before a verb of the bean
     * ends a conversation on the delivery's session, and how to tell that the delivery's transaction ended.
     *
     * @param beforeEnd called with the conversation handle, on this thread, in the delivery's transaction, before
     *        END CONVERSATION (normally, WITH ERROR or WITH CLEANUP) removes the conversation's messages from the
     *        queue; null: nothing
     * @param branchActive in a delivery in a JTA transaction, whether the reader's branch in it is still active (not
     *        ended by the transaction manager): the bean's verbs and JDBC work fail once it is not; null: no JTA
     *        transaction on the reader's connection (its local transaction)
     */
    public static void enter(DatabaseConfig database, BrokerSession session, Object transactionKey,
            Consumer<UUID> beforeEnd, BooleanSupplier branchActive) {
        CURRENT.set(transactionKey == null ? null
                : new DeliveryContext(database, session, transactionKey, beforeEnd, branchActive));
    }

    /**
     * Called by a verb that is about to end a conversation: when it runs on the session of the delivery this thread
     * is making, the reader's {@code beforeEnd} runs first (it takes what the reader must not lose with the
     * conversation's messages: priority requests to dead-letter).
     *
     * @param session the session the verb runs on
     * @param handle the conversation it ends
     */
    public static void beforeEnding(BrokerSession session, UUID handle) {
        DeliveryContext c = CURRENT.get();
        if (c != null && c.beforeEnd != null && c.session == session) {
            c.beforeEnd.accept(handle);
        }
    }

    /**
     * Ends what {@link #enter} marked. The thread's entry stays, holding nothing: a reader's thread enters again at its
     * next delivery, and setting an entry that is there allocates nothing.
     */
    public static void leave() {
        CURRENT.set(null);
    }
}
