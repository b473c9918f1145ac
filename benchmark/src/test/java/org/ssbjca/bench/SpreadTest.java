package org.ssbjca.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@link Spread}: the median and range of a comparison's rounds, as the report prints them. */
class SpreadTest {

    /** Three rounds out of order: the median is the middle one, the range the two ends. */
    @Test
    void threeRoundsGiveTheirMiddleAndTheirEnds() {
        Spread s = Spread.of(new double[] {0.87, 0.82, 0.95});
        assertEquals(new Spread(0.87, 0.82, 0.95, 3), s);
        assertEquals("0.87× (0.82×–0.95×)", s.text());
    }

    /** An even count: the lower middle round, a measured value, as {@link Rounds#median} takes it. */
    @Test
    void anEvenCountTakesTheLowerMiddleRound() {
        assertEquals(1.0, Spread.of(new double[] {1.2, 0.9, 1.0, 1.1}).median());
    }

    /** The ratio is taken within each round, not of the medians: 2/1, 3/6 and 4/2 give 2, 0.5 and 2. */
    @Test
    void ratiosAreTakenRoundByRound() {
        Spread s = Spread.ofRounds(new double[] {2, 3, 4}, new double[] {1, 6, 2});
        assertEquals(new Spread(2.0, 0.5, 2.0, 3), s);
    }

    /** Near its line a median keeps a third decimal, so that 0.968 against 0.97 does not print as the line itself. */
    @Test
    void aMedianNearItsLineKeepsAThirdDecimal() {
        Spread s = Spread.of(new double[] {0.99, 0.968, 0.83});
        assertEquals("0.968× (0.83×–0.99×)", s.text(0.97));
        assertEquals("0.97× (0.83×–0.99×)", s.text());
        assertEquals("0.968× (1 round)", Spread.of(new double[] {0.968}).text(0.97));
        assertEquals("0.98× (0.83×–0.99×)", Spread.of(new double[] {0.99, 0.98, 0.83}).text(0.97));
        assertEquals("0.974× (0.83×–0.99×)", Spread.of(new double[] {0.99, 0.974, 0.83}).text(0.97));
    }

    @Test
    void oneRoundSaysSo() {
        assertEquals("1.05× (1 round)", Spread.of(new double[] {1.05}).text());
    }

    @Test
    void roundsThatDoNotPairAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Spread.ofRounds(new double[] {1, 2}, new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> Spread.of(new double[0]));
    }
}
