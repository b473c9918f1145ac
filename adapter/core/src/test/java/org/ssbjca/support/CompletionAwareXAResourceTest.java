package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.ssbjca.fakes.RecordingXAResource.XID;

import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.Test;
import org.ssbjca.fakes.RecordingXAResource;

/** How a branch the adapter marked rollback-only ends, and what the completion callback hears. */
class CompletionAwareXAResourceTest {

    private final RecordingXAResource driver = new RecordingXAResource();
    private final List<Boolean> completions = new ArrayList<>();
    private final CompletionAwareXAResource resource = new CompletionAwareXAResource(driver, () -> { },
            completions::add);

    @Test
    void aCommitReportsTrue() throws XAException {
        resource.start(XID, XAResource.TMNOFLAGS);
        resource.end(XID, XAResource.TMSUCCESS);
        resource.commit(XID, true);
        assertEquals(List.of("start 0", "end " + XAResource.TMSUCCESS, "commit true"), driver.calls);
        assertEquals(List.of(Boolean.TRUE), completions);
    }

    @Test
    void aRollbackOnlyBranchRollsBackInsteadOfCommittingOnePhase() {
        resource.setRollbackOnly();
        XAException e = assertThrows(XAException.class, () -> resource.commit(XID, true));
        assertEquals(XAException.XA_RBROLLBACK, e.errorCode);
        assertEquals(List.of("rollback"), driver.calls);
        assertEquals(List.of(Boolean.FALSE), completions);
    }

    @Test
    void aRollbackOnlyBranchVotesNoAtPrepare() {
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

    /**
     * A commit the resource manager refused with a rollback code (pgjdbc: {@code XA_RBINTEGRITY} when a deferred
     * constraint fails at commit) ended rolled back; one that failed otherwise ({@code XAER_RMFAIL}) has no known
     * outcome.
     */
    @Test
    void aCommitRefusedWithARollbackCodeReportsFalseAndAFailedOneNothing() {
        driver.failCommit = new XAException(XAException.XA_RBINTEGRITY);
        assertSame(driver.failCommit, assertThrows(XAException.class, () -> resource.commit(XID, true)));
        assertEquals(List.of(Boolean.FALSE), completions);
        driver.failCommit = new XAException(XAException.XAER_RMFAIL);
        assertSame(driver.failCommit, assertThrows(XAException.class, () -> resource.commit(XID, true)));
        assertEquals(List.of(Boolean.FALSE), completions, "nothing more: the outcome is not known");
    }

    /** The same at a two-phase prepare: a deferred constraint fails at PREPARE TRANSACTION. */
    @Test
    void aPrepareRefusedWithARollbackCodeReportsFalseAndAFailedOneNothing() {
        driver.failPrepare = new XAException(XAException.XA_RBINTEGRITY);
        assertSame(driver.failPrepare, assertThrows(XAException.class, () -> resource.prepare(XID)));
        assertEquals(List.of(Boolean.FALSE), completions);
        driver.failPrepare = new XAException(XAException.XAER_RMFAIL);
        assertSame(driver.failPrepare, assertThrows(XAException.class, () -> resource.prepare(XID)));
        assertEquals(List.of(Boolean.FALSE), completions, "nothing more: the outcome is not known");
    }

    @Test
    void anOrdinaryRollbackFailureIsPassedOn() {
        driver.failRollback = new XAException(XAException.XAER_RMFAIL);
        XAException e = assertThrows(XAException.class, () -> resource.rollback(XID));
        assertSame(driver.failRollback, e);
    }

    @Test
    void whatWasHeldBackIsWrittenBeforeASuccessfulEndOnly() throws XAException {
        List<String> ran = new ArrayList<>();
        CompletionAwareXAResource held = new CompletionAwareXAResource(driver, () -> ran.add("flush " + driver.calls),
                completions::add);
        held.start(XID, XAResource.TMNOFLAGS);
        held.end(XID, XAResource.TMSUSPEND);
        held.start(XID, XAResource.TMRESUME);
        held.end(XID, XAResource.TMSUCCESS);
        held.commit(XID, true);
        assertEquals(List.of("flush [start 0, end " + XAResource.TMSUSPEND + ", start " + XAResource.TMRESUME + "]"),
                ran, "once, before the successful end (not at a suspension)");
        held.start(XID, XAResource.TMNOFLAGS);
        held.end(XID, XAResource.TMFAIL);
        held.rollback(XID);
        assertEquals(1, ran.size(), "a failed branch writes nothing");
    }

    /**
     * Writing what was held back fails: the branch ends as usual and votes to roll back, in one phase (the commit
     * refuses) or two (the prepare refuses), the calls a transaction manager makes either way.
     */
    @Test
    void whenWritingWhatWasHeldBackFailsTheBranchRollsBackAtItsCommitOrPrepare() throws XAException {
        IllegalStateException failure = new IllegalStateException("BEGIN DIALOG: target service 'T' does not exist");
        CompletionAwareXAResource held = new CompletionAwareXAResource(driver, () -> {
            throw failure;
        }, completions::add);
        held.start(XID, XAResource.TMNOFLAGS);
        held.end(XID, XAResource.TMSUCCESS);
        assertEquals(false, held.isActive());
        XAException refused = assertThrows(XAException.class, () -> held.commit(XID, true));
        assertEquals(XAException.XA_RBROLLBACK, refused.errorCode);
        assertEquals(List.of("start 0", "end " + XAResource.TMSUCCESS, "rollback"), driver.calls);
        assertEquals(List.of(Boolean.FALSE), completions);

        held.start(XID, XAResource.TMNOFLAGS);
        held.end(XID, XAResource.TMSUCCESS);
        XAException voted = assertThrows(XAException.class, () -> held.prepare(XID));
        assertEquals(XAException.XA_RBROLLBACK, voted.errorCode);
        assertEquals(List.of("start 0", "end " + XAResource.TMSUCCESS, "rollback", "start 0",
                "end " + XAResource.TMSUCCESS, "rollback"), driver.calls);
        assertEquals(List.of(Boolean.FALSE, Boolean.FALSE), completions);
    }

    @Test
    void theRollbackOnlyMarkIsClearedByTheRollback() throws XAException {
        resource.setRollbackOnly();
        assertThrows(XAException.class, () -> resource.commit(XID, true));
        resource.commit(XID, true);
        assertEquals(List.of("rollback", "commit true"), driver.calls);
    }

    /**
     * The timeout the transaction manager asks for is kept as asked (with the cap, it bounds the reader's wait), and
     * passed to the driver capped by the activation's {@code transactionTimeout}.
     */
    @Test
    void theTimeoutTheTransactionManagerAsksForIsKeptAsAsked() throws XAException {
        assertEquals(0, resource.requestedTransactionTimeout(), "none asked yet");
        resource.limitTransactionTimeout(30);
        assertEquals(0, resource.requestedTransactionTimeout(), "the adapter's own cap is not the manager's ask");
        resource.setTransactionTimeout(300);
        assertEquals(300, resource.requestedTransactionTimeout());
        assertEquals(List.of("timeout 30", "timeout 30"), driver.calls);
    }

    /**
     * The reader's wait is bounded by the branch's timeout: on SQL Server (a driver that takes the cap) the smaller of
     * the transaction manager's and the activation's {@code transactionTimeout}, as SQL Server aborts the branch at
     * the cap however long the transaction manager would wait.
     */
    @Test
    void theBranchTimeoutIsTheCapWhenTheDriverTookItAndItIsSmaller() throws XAException {
        assertEquals(0, resource.branchTimeout(), "none asked, none capped");
        resource.limitTransactionTimeout(5);
        assertEquals(5, resource.branchTimeout(), "capped, though the transaction manager asked for none");
        resource.setTransactionTimeout(300);
        assertEquals(5, resource.branchTimeout(), "SQL Server aborts the branch at the cap");
        assertEquals(5, resource.appliedTransactionTimeoutLimit());
        resource.setTransactionTimeout(2);
        assertEquals(2, resource.branchTimeout(), "the transaction manager's is the smaller");
    }

    /** A driver that ignores branch timeouts (pgjdbc, H2) leaves the transaction manager's alone. */
    @Test
    void aCapTheDriverIgnoresDoesNotBoundTheBranch() throws XAException {
        driver.ignoresTimeouts = true;
        resource.limitTransactionTimeout(5);
        assertEquals(0, resource.appliedTransactionTimeoutLimit());
        assertEquals(0, resource.branchTimeout());
        resource.setTransactionTimeout(300);
        assertEquals(300, resource.branchTimeout());
    }
}
