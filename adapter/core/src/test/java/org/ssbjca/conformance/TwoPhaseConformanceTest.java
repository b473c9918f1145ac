package org.ssbjca.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;
import static org.ssbjca.conformance.ReceiveConformanceTest.texts;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import javax.sql.XAConnection;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.fakes.TestXid;

/**
 * The verbs in a two-phase XA transaction, as when a bean sends while another resource (JMS, a second database) is
 * in the same transaction: the branch must prepare (PostgreSQL refuses to PREPARE a transaction that executed NOTIFY,
 * so wake-ups must not be part of it), then commit or roll back.
 */
class TwoPhaseConformanceTest {

    @BackendTest
    void aSendInAPreparedBranchIsDeliveredAfterCommit(Db db) throws Exception {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        runPrepared(db, s -> s.send(c.handle(), o.request, bytes("two-phase")), true);
        assertEquals(List.of("two-phase"), texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)))));
    }

    @BackendTest
    void aSendInAPreparedBranchRolledBackIsNeverDelivered(Db db) throws Exception {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        runPrepared(db, s -> s.send(c.handle(), o.request, bytes("rolled back")), false);
        assertEquals(0, db.depth(o.targetQueue));
    }

    @BackendTest
    void endAndReceiveInAPreparedBranch(Db db) throws Exception {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("q")));
        runPrepared(db, s -> {
            var m = s.receive(ReceiveRequest.from(o.targetQueue)).get(0);
            s.send(m.conversationHandle(), o.reply, bytes("r"));
            s.endConversation(m.conversationHandle(), null, null);
        }, true);
        assertEquals(2, db.depth(o.initiatorQueue), "the reply and the EndDialog");
    }

    @BackendTest
    void aPreparedBranchWhoseSessionEndedIsLeftForRecoveryNotReportedAsAHeuristicHazard(Db db) throws Exception {
        assumePrepares(db);
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        Xid xid = TestXid.next("ssb-2pc");
        XAConnection xa = db.fixture().connectXa();
        try (Connection conn = xa.getConnection()) {
            BackendFixture.SessionEnder ender = db.fixture().sessionEnder(conn);
            assumeTrue(ender != null, db.fixture().name() + " cannot end another connection's session");
            XAResource r = db.broker().xaResource(xa.getXAResource());
            r.start(xid, XAResource.TMNOFLAGS);
            db.broker().session(conn).send(c.handle(), o.request, bytes("in doubt"));
            r.end(xid, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, r.prepare(xid));
            ender.endSession();
            XAException e = assertThrows(XAException.class, () -> r.rollback(xid));
            assertEquals(XAException.XAER_RMFAIL, e.errorCode,
                    "the database could not be reached: retry at recovery (XAER_RMERR would be a heuristic hazard)");
        } finally {
            closeQuietly(xa);
        }

        XAConnection recovery = db.fixture().connectXa();
        try {
            XAResource r = db.broker().xaResource(recovery.getXAResource());
            Xid found = Arrays.stream(r.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                    .filter(x -> Arrays.equals(x.getGlobalTransactionId(), xid.getGlobalTransactionId()))
                    .findFirst().orElseThrow(() -> new AssertionError("recovery finds the prepared branch"));
            r.rollback(found);
        } finally {
            closeQuietly(recovery);
        }
        assertEquals(0, db.depth(o.targetQueue), "rolled back at recovery: never delivered");
    }

    private static void closeQuietly(XAConnection xa) {
        try {
            xa.close();
        } catch (SQLException e) {
            // a connection whose session ended
        }
    }

    /** Skips the test on a PostgreSQL server that cannot prepare transactions (its stock settings). */
    private static void assumePrepares(Db db) {
        if (db.broker().kind() == org.ssbjca.backend.BackendKind.POSTGRESQL) {
            PostgresServer.get().assumePreparedTransactions();
        }
    }

    private static void runPrepared(Db db, java.util.function.Consumer<BrokerSession> work, boolean commit)
            throws Exception {
        assumePrepares(db);
        XAConnection xa = db.fixture().connectXa();
        try (Connection c = xa.getConnection()) {
            XAResource r = db.broker().xaResource(xa.getXAResource());
            BrokerSession s = db.broker().session(c);
            Xid xid = TestXid.next("ssb-2pc");
            r.start(xid, XAResource.TMNOFLAGS);
            work.accept(s);
            r.end(xid, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, r.prepare(xid), "the branch prepares");
            if (commit) {
                r.commit(xid, false);
            } else {
                r.rollback(xid);
            }
            s.afterCompletion(commit);
        } finally {
            xa.close();
        }
    }
}
