package org.ssbjca.brokers;

import jakarta.resource.spi.work.WorkManager;
import org.ssbjca.backend.DatabaseConfig;

/**
 * What the activations, the connection factories and the management of one resource adapter instance need from it:
 * its databases, its defaults, the container's work manager and the caller's transaction. The resource adapter
 * implements it; the layers below see nothing else of it.
 */
public interface AdapterContext {

    /** Returns the brokers of this adapter; null before start. */
    BrokerRegistry registry();

    /** Returns the container's work manager; null before start. */
    WorkManager workManager();

    /**
     * Returns the container's timer for the adapter ({@code BootstrapContext.createTimer()}), for short checks that
     * must not wait for a work thread; null before start, or if the container has none.
     */
    java.util.Timer timer();

    /** Returns the key of the JTA transaction active on this thread, or null (none, or no registry). */
    Object transactionKey();

    /** Returns whether the JTA transaction active on this thread is marked for rollback (false when there is none). */
    boolean transactionRollbackOnly();

    /**
     * Marks the JTA transaction active on this thread for rollback: the container then rolls a failed delivery back
     * in {@code afterDelivery} instead of committing it (which the reader's branch refuses, after which the
     * transaction manager logs a warning and the container throws the failed commit). Does nothing when there is no
     * transaction on this thread, or no registry.
     */
    void setTransactionRollbackOnly();

    /**
     * Returns the database named by the adapter's own properties and, once started, by MicroProfile Config for those
     * left unset.
     *
     * @throws IllegalArgumentException if its URL selects no backend or names an unset system property
     */
    DatabaseConfig defaultDatabase();
}
