package io.rdmamon.protocol.testing;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The architecture rules that every module's {@code ArchitectureTest} checks, in one place: the packages of a
 * module import each other one way only, and a module uses only the modules below it (README.md "Source layout").
 * Shared with every module's tests through the protocol's test jar.
 */
public final class ArchitectureRules {
    /** The modules with main code, each with its root package and the modules it may use. */
    public enum Module {
        PROTOCOL("io.rdmamon.protocol"),
        NATIVE("io.rdmamon.nativeio"),
        AGENT("io.rdmamon.agent", PROTOCOL, NATIVE),
        COLLECTOR("io.rdmamon.collector", PROTOCOL),
        CLI("io.rdmamon.cli", PROTOCOL, NATIVE, AGENT, COLLECTOR);

        private final String rootPackage;
        private final List<Module> uses;

        Module(String rootPackage, Module... uses) {
            this.rootPackage = rootPackage;
            this.uses = List.of(uses);
        }

        public String rootPackage() {
            return rootPackage;
        }

        /** {@code root..}: the root package and every package below it. */
        private String packagePattern() {
            return rootPackage + "..";
        }
    }

    /** Every rdmamon class is below this package; outside it lie the libraries. */
    private static final String RDMAMON = "io.rdmamon..";
    /** The test support every module's tests share (the protocol's test jar). */
    private static final String TEST_SUPPORT = ArchitectureRules.class.getPackageName() + "..";

    private ArchitectureRules() {
    }

    /**
     * No cycle between the packages of {@code module}: each package (the root package too, and a subpackage apart
     * from its parent) is a slice of its own, so that imports between any two packages go one way only.
     */
    public static ArchRule packagesFreeOfCycles(Module module) {
        return slices().assignedFrom(eachPackageBelow(module.rootPackage())).should().beFreeOfCycles();
    }

    /** The classes of {@code module} use no rdmamon module but itself and those it is declared to use. */
    public static ArchRule usesOnlyItsModules(Module module) {
        return usesOnly(module);
    }

    /**
     * Checks that the tests of {@code module} use what its main classes may use, and the shared test support of this
     * package. The tests' classes are imported here, apart from the main classes the other rules are checked on.
     */
    public static void checkTestsUseOnlyItsModules(Module module) {
        JavaClasses tests = new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
                .importPackages(module.rootPackage());
        usesOnly(module, TEST_SUPPORT).check(tests);
    }

    /** The classes of {@code module} use no rdmamon package but those of its modules and {@code morePackages}. */
    private static ArchRule usesOnly(Module module, String... morePackages) {
        Stream<String> modules = Stream.concat(Stream.of(module), module.uses.stream()).map(Module::packagePattern);
        String[] allowed = Stream.concat(modules, Stream.of(morePackages)).toArray(String[]::new);
        return classes().that().resideInAPackage(module.packagePattern())
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(RDMAMON).or(resideInAnyPackage(allowed)))
                .as("classes of " + module.rootPackage() + " use no rdmamon package but " + Arrays.toString(allowed));
    }

    /** The classes of {@code module} use nothing in {@code libraryPackages}, ArchUnit patterns ({@code io.vertx..}). */
    public static ArchRule usesNone(Module module, String... libraryPackages) {
        return noClasses().that().resideInAPackage(module.packagePattern())
                .should().dependOnClassesThat().resideInAnyPackage(libraryPackages);
    }

    /**
     * One slice per package below {@code rootPackage}, named by its path under the root ({@code diagnosis.rules});
     * the root package itself is the slice {@code (root)}. Classes outside the root are left out.
     */
    public static SliceAssignment eachPackageBelow(String rootPackage) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                if (name.equals(rootPackage)) {
                    return SliceIdentifier.of("(root)");
                }
                return name.startsWith(rootPackage + ".")
                        ? SliceIdentifier.of(name.substring(rootPackage.length() + 1)) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "each package below " + rootPackage;
            }
        };
    }
}
