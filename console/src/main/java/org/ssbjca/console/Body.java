package org.ssbjca.console;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a resource method's JSON body must be, in the words a refusal gives: {@link BodyCheck} answers 400
 * {@code {"error": "expected <value>: ..."}} when the body cannot be read as the parameter's type.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface Body {

    /** @return the body expected, such as {@code {"value": n}, n a whole number from 1 to 256} */
    String value();
}
