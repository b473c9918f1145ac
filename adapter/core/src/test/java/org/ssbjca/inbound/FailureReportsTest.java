package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A cause is news once, until a reader's turn succeeds. */
class FailureReportsTest {

    /** What mssql-jdbc says when SQL Server goes away: the same cause, each connection's own id appended. */
    private static final String RESET = "Connection reset ClientConnectionId:%s";

    @Test
    void aCauseIsNewsOnceUntilATurnSucceeds() {
        FailureReports reports = new FailureReports();

        assertTrue(reports.firstReport("relation \"ssb.message\" does not exist"));
        assertFalse(reports.firstReport("relation \"ssb.message\" does not exist"));
        assertTrue(reports.firstReport("Connection refused"), "another cause");
        reports.recovered();
        assertTrue(reports.firstReport("Connection refused"), "news again after a turn succeeded");
    }

    @Test
    void sqlServersConnectionIdsDoNotMakeACauseNewsAgain() {
        FailureReports reports = new FailureReports();

        assertTrue(reports.firstReport(RESET.formatted("cec6e498-3b1d-42a8-900c-74900264bcab")));
        assertFalse(reports.firstReport(RESET.formatted("11dbc967-9192-4b62-b49a-c0ba95ca95c2")),
                "the same failure on the next connection");
        assertTrue(reports.firstReport("Login failed for user 'ssb'. ClientConnectionId:"
                + "11dbc967-9192-4b62-b49a-c0ba95ca95c2"), "another cause");
    }

    /** {@code SSBJCA0017}: once per activation for the same figures, by whichever of its readers sees them first. */
    @Test
    void aWaitOverTheTransactionTimeoutIsSaidOncePerFigures() {
        FailureReports reports = new FailureReports();

        assertTrue(reports.waitFiguresChanged(300_000, 300, false));
        assertFalse(reports.waitFiguresChanged(300_000, 300, false), "another reader, the same figures");
        assertTrue(reports.waitFiguresChanged(200_000, 300, false), "a WaitTimeout set over JMX");
        assertFalse(reports.waitFiguresChanged(200_000, 300, false));
        assertTrue(reports.waitFiguresChanged(200_000, 120, false), "another default-timeout");
        assertTrue(reports.waitFiguresChanged(200_000, 120, true), "the same seconds, now the activation's cap");
    }

    /**
     * Figures in range are noted too: a WaitTimeout set over JMX into range and later back to the figures said before
     * is news again, as docs/guide/inbound-mdbs.md says ("said again when a WaitTimeout set over JMX changes the
     * figures").
     */
    @Test
    void aWaitSetBackOverTheLimitAfterBeingInRangeIsNewsAgain() {
        FailureReports reports = new FailureReports();

        assertTrue(reports.waitFiguresChanged(300_000, 300, false), "over the limit: said");
        assertTrue(reports.waitFiguresChanged(5_000, 300, false), "in range: noted (the caller says nothing)");
        assertFalse(reports.waitFiguresChanged(5_000, 300, false), "the next turns");
        assertTrue(reports.waitFiguresChanged(300_000, 300, false), "back over the limit: said again");
        assertTrue(reports.waitFiguresChanged(300_000, 0, false), "a transaction without a timeout: noted");
        assertTrue(reports.waitFiguresChanged(300_000, 300, false), "the timeout again: said again");
    }

    @Test
    void anIgnoredTimeoutIsSaidOnce() {
        FailureReports reports = new FailureReports();

        assertTrue(reports.firstIgnoredTimeout());
        assertFalse(reports.firstIgnoredTimeout());
    }
}
