package org.ssbjca.support;

import java.util.function.Consumer;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * An XA resource that reports how each branch ended: committed (including a read-only prepare, after which the
 * transaction manager does not call commit) or rolled back. The adapter uses it to wake readers after a SEND commits
 * and to count failed deliveries. Before a branch ends with success it has the session write what it held back
 * ({@code beforeEnd}); when that fails, the branch rolls back. Everything else is delegated unchanged;
 * {@link #isSameRM} compares the wrapped resources.
 */
public final class CompletionAwareXAResource extends ForwardingXAResource {

    private static final AdapterLog LOG = AdapterLog.of(CompletionAwareXAResource.class);

    private final Runnable beforeEnd;
    private final Consumer<Boolean> onCompletion;
    private volatile boolean active;
    private volatile boolean rollbackOnly;
    private volatile int timeoutLimit;
    private volatile boolean timeoutLimitTaken;
    private volatile int requestedTimeout;

    /**
     * @param delegate the driver's XA resource
     * @param beforeEnd runs before a branch ends with {@code TMSUCCESS}, on the connection still in the branch
     *     (the session writes what it held back); when it throws, the branch is marked to roll back
     * @param onCompletion receives true after a commit (or read-only prepare), false after a rollback
     */
    public CompletionAwareXAResource(XAResource delegate, Runnable beforeEnd, Consumer<Boolean> onCompletion) {
        super(delegate);
        this.beforeEnd = beforeEnd;
        this.onCompletion = onCompletion;
    }

    /** Returns whether a branch is started and not yet ended (the connection works inside a global transaction). */
    public boolean isActive() {
        return active;
    }

    /**
     * Makes the current branch vote to roll back: the adapter hit an error (a failed RECEIVE) that the transaction
     * manager cannot see. Cleared when the branch completes.
     */
    public void setRollbackOnly() {
        rollbackOnly = true;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        delegate().start(xid, flags);
        if (flags == TMNOFLAGS) {
            rollbackOnly = false; // a new branch: a mark left by one its transaction manager never completed is gone
        }
        active = true;
    }

    /**
     * Ends the branch; before a successful end, writes what the session held back. When that fails, the branch ends
     * as usual but is marked to roll back ({@link #setRollbackOnly}: its prepare, or its one-phase commit, rolls it
     * back and says {@code XA_RBROLLBACK}), and the failure is logged: the transaction manager learns of it at the
     * commit, through the path every transaction manager drives the same way.
     */
    @Override
    public void end(Xid xid, int flags) throws XAException {
        if (flags == TMSUCCESS && !rollbackOnly) { // a branch that rolls back anyway writes nothing more
            try {
                beforeEnd.run();
            } catch (RuntimeException e) {
                LOG.heldWritesFailed(e, xid);
                rollbackOnly = true;
            }
        }
        active = false;
        delegate().end(xid, flags);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        refuseIfRollbackOnly(xid);
        int vote;
        try {
            vote = delegate().prepare(xid);
        } catch (XAException e) {
            reportIfRolledBack(e);
            throw e;
        }
        if (vote == XA_RDONLY) {
            onCompletion.accept(Boolean.TRUE);
        }
        return vote;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        if (onePhase) {
            refuseIfRollbackOnly(xid);
        }
        try {
            delegate().commit(xid, onePhase);
        } catch (XAException e) {
            reportIfRolledBack(e);
            throw e;
        }
        onCompletion.accept(Boolean.TRUE);
    }

    /**
     * A prepare or commit the resource manager refused with a rollback code ({@code XA_RB*}; pgjdbc's
     * {@code XA_RBINTEGRITY} when a deferred constraint fails) rolled the branch back: reported as such. Other
     * failures ({@code XAER_RMFAIL}: the connection lost) leave the outcome unknown.
     */
    private void reportIfRolledBack(XAException e) {
        if (e.errorCode >= XAException.XA_RBBASE && e.errorCode <= XAException.XA_RBEND) {
            onCompletion.accept(Boolean.FALSE);
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        rollbackOnly = false;
        try {
            delegate().rollback(xid);
        } finally {
            onCompletion.accept(Boolean.FALSE);
        }
    }

    /**
     * Rolls the branch back and says so with {@code XA_RBROLLBACK}, also when the rollback itself fails: the branch
     * was never prepared, so it cannot commit; a database that cannot be told to roll it back now (the connection
     * was lost, which is why the adapter marked it) rolls it back when the session ends. Passing the rollback's
     * {@code XAER_RMFAIL} on would make the transaction manager log a heuristic hazard that no recovery can resolve.
     */
    private void refuseIfRollbackOnly(Xid xid) throws XAException {
        if (rollbackOnly) {
            XAException refused = new XAException(XAException.XA_RBROLLBACK);
            try {
                rollback(xid);
            } catch (XAException e) {
                refused.initCause(e);
            }
            throw refused;
        }
    }

    /**
     * Returns the timeout, in seconds, of the transaction the transaction manager last enlisted this resource in, as it
     * passed it to {@link #setTransactionTimeout} (Narayana does at each enlistment, with its {@code
     * xaTransactionTimeoutEnabled}, true by default, when the transaction has a timeout); 0 when it never did. A later
     * transaction without a timeout leaves the last one's: Narayana does not call for it.
     */
    public int requestedTransactionTimeout() {
        return requestedTimeout;
    }

    /**
     * Returns the cap of {@link #limitTransactionTimeout} when the driver's resource took it (mssql-jdbc: SQL Server
     * aborts a branch open that long, whatever the transaction manager's timeout); 0 when none was set or the driver
     * ignores branch timeouts (pgjdbc, H2).
     */
    public int appliedTransactionTimeoutLimit() {
        return timeoutLimitTaken ? timeoutLimit : 0;
    }

    /**
     * Returns the timeout, in seconds, a branch of this resource has: the smaller of the transaction manager's ({@link
     * #requestedTransactionTimeout}, after which its reaper rolls the transaction back) and the cap the database
     * applies ({@link #appliedTransactionTimeoutLimit}), leaving out one that is 0; 0 when both are.
     */
    public int branchTimeout() {
        int requested = requestedTimeout;
        int limit = appliedTransactionTimeoutLimit();
        if (requested <= 0 || limit <= 0) {
            return Math.max(requested, limit);
        }
        return Math.min(requested, limit);
    }

    /**
     * Notes the timeout the transaction manager asks for ({@link #requestedTransactionTimeout}), and passes it on,
     * capped by {@link #limitTransactionTimeout}.
     */
    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        requestedTimeout = seconds;
        int limit = timeoutLimit;
        return delegate().setTransactionTimeout(limit > 0 && (seconds <= 0 || seconds > limit) ? limit : seconds);
    }

    /**
     * Caps the branch timeout the transaction manager asks for (and sets it now).
     *
     * @param seconds the longest a branch may stay open in the database
     * @return whether the driver's resource took the timeout; false when it ignores branch timeouts (pgjdbc, H2)
     */
    public boolean limitTransactionTimeout(int seconds) {
        timeoutLimit = seconds;
        boolean taken;
        try {
            taken = delegate().setTransactionTimeout(seconds);
        } catch (XAException e) {
            taken = false;
        }
        timeoutLimitTaken = seconds > 0 && taken;
        return taken;
    }
}
