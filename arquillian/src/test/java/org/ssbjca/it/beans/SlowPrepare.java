package org.ssbjca.it.beans;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A do-nothing XA resource a test bean enlists last in its transaction: its prepare sleeps, then votes read-only.
 * The other branches of the transaction are prepared and wait for the outcome meanwhile, which widens the window in
 * which a crash leaves them in doubt. Read-only: the transaction manager neither logs nor recovers it.
 */
public final class SlowPrepare implements XAResource {

    private final long millis;

    /**
     * Enlists a slow prepare in the caller's transaction.
     *
     * @param transactions the transaction manager
     * @param millis how long its prepare sleeps
     */
    public static void enlist(jakarta.transaction.TransactionManager transactions, long millis) {
        try {
            transactions.getTransaction().enlistResource(new SlowPrepare(millis));
        } catch (jakarta.transaction.RollbackException | jakarta.transaction.SystemException e) {
            throw new IllegalStateException("cannot enlist the slow-prepare resource", e);
        }
    }

    /** @param millis how long prepare sleeps */
    public SlowPrepare(long millis) {
        this.millis = millis;
    }

    @Override
    public int prepare(Xid xid) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return XA_RDONLY;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) {
    }

    @Override
    public void rollback(Xid xid) {
    }

    @Override
    public void start(Xid xid, int flags) {
    }

    @Override
    public void end(Xid xid, int flags) {
    }

    @Override
    public void forget(Xid xid) {
    }

    @Override
    public Xid[] recover(int flag) {
        return new Xid[0];
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return false;
    }

    @Override
    public int getTransactionTimeout() {
        return 0;
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return false;
    }
}
