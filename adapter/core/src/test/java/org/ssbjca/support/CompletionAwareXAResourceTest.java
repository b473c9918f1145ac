package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;

/** How a branch the adapter marked rollback-only ends, and what the completion callback hears. */
class CompletionAwareXAResourceTest {

    private static final Xid XID = new Xid() {
        @Override
        public int getFormatId() {
            return 1;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return new byte[] {1};
        }

        @Override
        public byte[] getBranchQualifier() {
            return new byte[] {2};
        }
    };

    private final Driver driver = new Driver();
    private final List<Boolean> completions = new ArrayList<>();
    private final CompletionAwareXAResource resource = new CompletionAwareXAResource(driver, completions::add);

    @Test
    void aCommitReportsTrue() throws XAException {
        resource.start(XID, XAResource.TMNOFLAGS);
        resource.end(XID, XAResource.TMSUCCESS);
        resource.commit(XID, true);
        assertEquals(List.of("start", "end", "commit"), driver.calls);
        assertEquals(List.of(Boolean.TRUE), completions);
    }

    @Test
    void aRollbackOnlyBranchRollsBackInsteadOfCommittingOnePhase() throws XAException {
        resource.setRollbackOnly();
        XAException e = assertThrows(XAException.class, () -> resource.commit(XID, true));
        assertEquals(XAException.XA_RBROLLBACK, e.errorCode);
        assertEquals(List.of("rollback"), driver.calls);
        assertEquals(List.of(Boolean.FALSE), completions);
    }

    @Test
    void aRollbackOnlyBranchVotesNoAtPrepare() throws XAException {
        resource.setRollbackOnly();
        XAException e = assertThrows(XAException.class, () -> resource.prepare(XID));
        assertEquals(XAException.XA_RBROLLBACK, e.errorCode);
        assertEquals(List.of("rollback"), driver.calls);
    }

    @Test
    void aRollbackThatFailsOnALostConnectionStillEndsAsRolledBackNotAsAHazard() {
        driver.failRollback = new XAException(XAException.XAER_RMFAIL);
        resource.setRollbackOnly();
        XAException e = assertThrows(XAException.class, () -> resource.commit(XID, true));
        assertEquals(XAException.XA_RBROLLBACK, e.errorCode, "never prepared, so certainly not committed");
        assertSame(driver.failRollback, e.getCause());
        assertEquals(List.of(Boolean.FALSE), completions);
    }

    @Test
    void anOrdinaryRollbackFailureIsPassedOn() {
        driver.failRollback = new XAException(XAException.XAER_RMFAIL);
        XAException e = assertThrows(XAException.class, () -> resource.rollback(XID));
        assertSame(driver.failRollback, e);
    }

    @Test
    void theRollbackOnlyMarkIsClearedByTheRollback() throws XAException {
        resource.setRollbackOnly();
        assertThrows(XAException.class, () -> resource.commit(XID, true));
        resource.commit(XID, true);
        assertEquals(List.of("rollback", "commit"), driver.calls);
    }

    /** Records the calls; its rollback can be made to fail. */
    private static final class Driver implements XAResource {

        final List<String> calls = new ArrayList<>();
        XAException failRollback;

        @Override
        public void start(Xid xid, int flags) {
            calls.add("start");
        }

        @Override
        public void end(Xid xid, int flags) {
            calls.add("end");
        }

        @Override
        public int prepare(Xid xid) {
            calls.add("prepare");
            return XA_OK;
        }

        @Override
        public void commit(Xid xid, boolean onePhase) {
            calls.add("commit");
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
            return new Xid[0];
        }

        @Override
        public boolean isSameRM(XAResource other) {
            return other == this;
        }

        @Override
        public int getTransactionTimeout() {
            return 0;
        }

        @Override
        public boolean setTransactionTimeout(int seconds) {
            return true;
        }
    }
}
