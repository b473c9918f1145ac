package org.ssbjca.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Report#markdown}: the machine's speed first, issue 49's targets before the earlier ones, in point order. */
class ReportTest {

    private static int at(String text, String part) {
        int i = text.indexOf(part);
        assertTrue(i >= 0, part + " missing from:\n" + text);
        return i;
    }

    /** Targets added as the phases run (latency, then scaling, then one database) are listed by issue 49's points. */
    @Test
    void theSpeedComesFirstAndIssue49sTargetsByPointBeforeTheEarlierOnes() {
        Report r = new Report();
        r.machine.put("cores", "2");
        r.target("an earlier target", "≥ 1×", "0.9×", false);
        r.target49(3, "the latency target", "≤ x", "y", true);
        r.target49(2, "the adapter target", "≥ 0.97×", "0.98×", true);
        r.target49(1, "the one-database target", "≥ 2×", "2.1×", true);
        r.speed("the ceiling's figures");
        String md = r.markdown("cmd");
        assertTrue(at(md, "## The machine's speed in this run") < at(md, "## Machine\n"));
        assertTrue(at(md, "- the ceiling's figures") < at(md, "## Targets (issue 49)"));
        assertTrue(at(md, "## Targets (issue 49)") < at(md, "the one-database target"));
        assertTrue(at(md, "the one-database target") < at(md, "the adapter target"));
        assertTrue(at(md, "the adapter target") < at(md, "the latency target"));
        assertTrue(at(md, "the latency target") < at(md, "## Earlier targets"));
        assertTrue(at(md, "## Earlier targets") < at(md, "an earlier target"));
    }

    /** A reference a phase has not measured is a dash; each measured one its median and range. */
    @Test
    void aHeadlineGivesEachReferencesSpreadOrADash() {
        Report r = new Report();
        r.headline(new Report.Headline("reply", new Spread(2.5, 2.0, 3.0, 3), null, null,
                new Spread(1.1, 1.0, 1.2, 3)));
        assertTrue(r.markdown("cmd").contains("| reply | 2.50× (2.00×–3.00×) | — | — | 1.10× (1.00×–1.20×) |"));
    }

    /** A missed target stays missed in bold; the measurement that shows it out of reach follows it. */
    @Test
    void aMissedTargetNamesWhatShowsItOutOfReach() {
        Report r = new Report();
        r.target49(3, "p50", "≤ 0.32 ms", "0.49 ms", false, "out of reach: the take took 0.43 ms");
        r.target49(3, "p99", "≤ 1.52 ms", "1.74 ms", false);
        r.target49(2, "scaling", "≥ 1×", "1.3×", true);
        String md = r.markdown("cmd");
        assertTrue(md.contains("| p50 | ≤ 0.32 ms | 0.49 ms | **missed**; out of reach: the take took 0.43 ms |"), md);
        assertTrue(md.contains("| p99 | ≤ 1.52 ms | 1.74 ms | **missed** |"), md);
        assertTrue(md.contains("| scaling | ≥ 1× | 1.3× | met |"), md);
    }

    /** Without the throughput phase the speed section says it was not measured instead of disappearing. */
    @Test
    void noSpeedSaysNotMeasured() {
        assertTrue(new Report().markdown("cmd").contains("- not measured (the throughput phase did not run)"));
    }
}
