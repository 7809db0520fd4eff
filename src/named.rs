//! `named_enum!`: a fieldless enum whose variants each have a name, written
//! once as a list, from which the enum, `ALL` and the name's function are made.

/// Declares a fieldless enum from a list of `Variant => "name"` (each with
/// its attributes), with `ALL`, every variant in the order listed, the
/// function given after the enum, which returns a variant's name, and
/// `from_name`, the variant of a name.
///
/// ```text
/// named_enum! {
///     #[derive(Debug, Clone, Copy, PartialEq, Eq)]
///     pub enum Light { Red => "red", Green => "green", }
///     /// The word on the sign.
///     fn name;
/// }
/// ```
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $enum:ident {
            $($(#[$vmeta:meta])* $variant:ident => $name:literal,)+
        }
        $(#[$fmeta:meta])*
        fn $fn:ident;
    ) => {
        $(#[$meta])*
        $vis enum $enum {
            $($(#[$vmeta])* $variant,)+
        }

        impl $enum {
            /// Every variant, in the order declared.
            pub const ALL: [$enum; [$(stringify!($variant)),+].len()] = [$($enum::$variant),+];

            $(#[$fmeta])*
            pub fn $fn(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)+
                }
            }

            /// The variant with this name, if one has it.
            #[allow(dead_code)]
            pub fn from_name(name: &str) -> Option<$enum> {
                Self::ALL.into_iter().find(|v| v.$fn() == name)
            }
        }
    };
}
