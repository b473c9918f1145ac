package org.ssbjca.fakes;

import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * The part of a transaction synchronization registry the adapter uses: the current transaction's key, and its mark
 * for rollback.
 */
public final class FakeTransactions implements TransactionSynchronizationRegistry {

    /** Whether the transaction on this thread is marked for rollback, as {@code setRollbackOnly} does. */
    static final ThreadLocal<Boolean> ROLLBACK_ONLY = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private final ThreadLocal<Object> current = new ThreadLocal<>();

    /** @param key the transaction on this thread from now on */
    public void begin(Object key) {
        current.set(key);
    }

    /** No transaction on this thread from now on. */
    public void end() {
        current.remove();
    }

    @Override
    public Object getTransactionKey() {
        return current.get();
    }

    @Override
    public void putResource(Object key, Object value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Object getResource(Object key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void registerInterposedSynchronization(Synchronization sync) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int getTransactionStatus() {
        return current.get() == null ? 6 : 0;
    }

    /** Marks the transaction on this thread for rollback; the endpoint then rolls it back in afterDelivery. */
    @Override
    public void setRollbackOnly() {
        if (current.get() == null) {
            throw new IllegalStateException("no transaction on this thread");
        }
        ROLLBACK_ONLY.set(Boolean.TRUE);
    }

    @Override
    public boolean getRollbackOnly() {
        return ROLLBACK_ONLY.get();
    }
}
