package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.fakes.LogRecords;

/**
 * The contract of {@link org.ssbjca.backend.BrokerSession#deferWrites} on PostgreSQL: only a session told may hold a
 * BEGIN DIALOG back, only inside a transaction, and a held one that its owner let commit unwritten is lost and
 * logged as the defect it is ({@code SSBJCA0032}).
 */
class HeldBeginDialogSessionTest {

    private static final byte[] BODY = "work".getBytes(StandardCharsets.UTF_8);

    @Test
    void aSessionNeverToldWritesBeginDialogWhenCalled() throws Exception {
        try (CountedSession f = CountedSession.declared("held_session_untold")) {
            knowTheDeclaredObjects(f);
            Conversation c = f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
            f.c.commit(); // no flush: a session that was never told needs none
            f.s.afterCompletion(true);
            assertEquals(1, endpoints(f, c));
        }
    }

    @Test
    void aDeferringSessionOutsideATransactionWritesBeginDialogWhenCalled() throws Exception {
        try (CountedSession f = CountedSession.declared("held_session_autocommit")) {
            knowTheDeclaredObjects(f);
            f.s.deferWrites();
            f.c.setAutoCommit(true);
            Conversation c = f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
            assertEquals(1, endpoints(f, c));
            f.c.setAutoCommit(false);
        }
    }

    /**
     * In an XA branch as pgjdbc 42.7.13 and later run one (auto-commit on, the branch's BEGIN alone), a session its
     * owner tells of the branch holds BEGIN DIALOG back as in any transaction; the owner's flush writes it.
     */
    @Test
    void aDeferringSessionInABranchWithAutoCommitOnHoldsBeginDialogUntilFlushed() throws Exception {
        try (CountedSession f = CountedSession.declared("held_session_branch")) {
            knowTheDeclaredObjects(f);
            f.s.deferWrites();
            f.beginBranchWithAutoCommitOn();
            Conversation c = f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
            assertEquals(0, endpointsInTheTransaction(f, c), "held back");
            f.commitBranch();
            assertEquals(1, endpoints(f, c), "written by the flush before the commit");
        }
    }

    @Test
    void aHeldBeginDialogItsOwnerLetCommitUnwrittenIsLoggedAsADefect() throws Exception {
        try (CountedSession f = CountedSession.declared("held_session_lost");
                LogRecords log = LogRecords.of(PortableSession.class)) {
            knowTheDeclaredObjects(f);
            f.s.deferWrites();
            Conversation c = f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
            f.c.commit(); // the owner's defect: no flush before the commit
            f.s.afterCompletion(true);
            assertEquals(0, endpoints(f, c));
            assertEquals(1, log.messages(Level.SEVERE, "SSBJCA0032").size());
            assertEquals(true, log.messages(Level.SEVERE, "SSBJCA0032").get(0).contains(c.handle().toString()));

            f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
            f.c.rollback();
            f.s.afterCompletion(false);
            assertEquals(1, log.messages(Level.SEVERE, "SSBJCA0032").size(), "a rollback loses nothing");
        }
    }

    /** BEGIN DIALOG once, written when called: the broker remembers what its checks found. */
    private static void knowTheDeclaredObjects(CountedSession f) throws Exception {
        Conversation c = f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
        f.s.send(c.handle(), "M", BODY);
        f.commit();
    }

    /** @return the endpoints of the dialog that another connection sees (committed) */
    private static long endpoints(CountedSession f, Conversation c) throws Exception {
        try (java.sql.Connection other = new org.ssbjca.backend.ConnectionSource(f.broker.source().config()).open()) {
            return endpoints(other, c);
        }
    }

    /** @return the endpoints of the dialog that the session's own transaction sees */
    private static long endpointsInTheTransaction(CountedSession f, Conversation c) throws Exception {
        return endpoints(f.c, c);
    }

    private static long endpoints(java.sql.Connection on, Conversation c) throws Exception {
        try (PreparedStatement ps = on.prepareStatement(
                "SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE conversation_handle = ?")) {
            ps.setObject(1, c.handle());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
