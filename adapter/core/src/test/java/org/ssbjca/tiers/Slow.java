package org.ssbjca.tiers;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test left out of the fast tier ({@code mvn -Pfast}, which excludes the tag {@value #TAG}): database outages and
 * restarts, long timing cases. The full suite ({@code mvn verify}, {@code .ci/run}) runs it.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(Slow.TAG)
public @interface Slow {

    /** The JUnit tag. */
    String TAG = "slow";
}
