package org.ssbjca.fakes;

import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/** A driver's XA resource that records what it was asked ("start 0", "commit true", ...); its rollback can fail. */
public final class RecordingXAResource implements XAResource {

    /** A branch id for tests. */
    public static final Xid XID = TestXid.next("recorded");

    /** The calls, in order. */
    public final List<String> calls = new ArrayList<>();
    /** The resource {@link #isSameRM} says it shares a database with. */
    public XAResource sameAs;
    /** What {@link #prepare} votes. */
    public int prepareVote = XA_OK;
    /** Thrown by {@link #rollback} (after recording the call) when set. */
    public XAException failRollback;
    /** When set, commit throws it. */
    public XAException failCommit;
    /** When set, a one-phase commit throws it (after recording the call), as mssql-jdbc issue 1551 describes. */
    public XAException failOnePhaseCommit;
    /** When set, prepare throws it. */
    public XAException failPrepare;
    /** When set, {@link #setTransactionTimeout} records the call and says false, as pgjdbc and H2 do. */
    public boolean ignoresTimeouts;

    @Override
    public void start(Xid xid, int flags) {
        calls.add("start " + flags);
    }

    @Override
    public void end(Xid xid, int flags) {
        calls.add("end " + flags);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        calls.add("prepare");
        if (failPrepare != null) {
            throw failPrepare;
        }
        return prepareVote;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        calls.add("commit " + onePhase);
        if (onePhase && failOnePhaseCommit != null) {
            throw failOnePhaseCommit;
        }
        if (failCommit != null) {
            throw failCommit;
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        calls.add("rollback");
        if (failRollback != null) {
            throw failRollback;
        }
    }

    @Override
    public void forget(Xid xid) {
        calls.add("forget");
    }

    @Override
    public Xid[] recover(int flag) {
        calls.add("recover " + flag);
        return new Xid[] {XID};
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other == sameAs;
    }

    @Override
    public int getTransactionTimeout() {
        return 17;
    }

    @Override
    public boolean setTransactionTimeout(int seconds) {
        calls.add("timeout " + seconds);
        return !ignoresTimeouts;
    }
}
