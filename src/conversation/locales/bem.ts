import type { Catalogue } from './index.js';

/**
 * Bemba (Ichibemba, as spoken on the Copperbelt and in the North): every key a policyholder or
 * funeral member sees, beside its English in `en.ts`. Plain everyday words; an insurer's term
 * with no common word stays in English with a short gloss the first time a screen needs it.
 * GSM 7-bit characters only (USSD and SMS). See docs/languages.md, "Reviewing a translation".
 */
export const bem: Catalogue = {
  // engine
  'engine.stillWorking': 'Tucili tulebombela pa fyo mwalomba. Asukeni pa kuti mumone ifyafumamo.',
  'engine.busy': 'Tucili tulebombela pa fyo mwalombele. Napapata eseshenipo panono.',
  'engine.interrupted': 'Ifyo mwasalile kuntanshi nalimo tafyapitile. Napapata asukenipo nakabili.',
  'engine.restarted': 'Mutulekelele, twatendeka nakabili ukufuma pa kutendeka.',
  'engine.error': 'Mutulekelele, kwaba ubwafya kuli fwebo. Napapata eseshenipo pali cimbi.',
  'engine.sessionEnded': 'Ilyashi lyapwa.',
  'engine.goodbye': 'Natotela pa kubomfya ubutumikishi bwesu.',
  'engine.checkAgain': 'Moneni nakabili',

  // validation
  'validation.nrc.format': 'Lembeni NRC nga 123456/78/9 nangu nambala 9.',
  'validation.nrc.nationality': 'Nambala ya kulekelesha iya NRC ifwile ukuba 1, 2 nangu 3.',
  'validation.phone.format': 'Lembeni nambala ya foni iya mu Zambia nga 0971234567.',
  'validation.phone.notMobile': 'Iyo te nambala ya foni ya ku minwe.',
  'validation.phone.notZambian': 'Lembeni nambala ya foni iya mu Zambia (+260).',
  'validation.plate.format': 'Lembeni nambala ya motoka, nga AJQ 1909.',
  'validation.date.format': 'Lembeni ubushiku nga DD/MM/YYYY, pa cilangililo 05/03/2027.',
  'validation.date.invalid': 'Ubo bushiku tabubako.',
  'validation.date.notPast': 'Ubushiku bufwile ukuba ubwapitapo.',
  'validation.date.notFuture': 'Ubushiku bufwile ukuba ubwa ku ntanshi.',
  'validation.date.notTodayOrFuture': 'Ubushiku bufwile ukuba lelo nangu ku ntanshi.',
  'validation.date.notTodayOrPast': 'Ubushiku bufwile ukuba lelo nangu ubwapitapo.',
  'validation.date.tooEarly': 'Ubushiku bufwile ukuba {min, date} nangu panuma.',
  'validation.date.tooLate': 'Ubushiku bufwile ukuba {max, date} nangu ilyo talilafika.',
  'validation.amount.format': 'Lembeni indalama nga 1500 nangu 1500.50.',
  'validation.amount.notPositive': 'Indalama ifwile ukucila pa 0.',
  'validation.amount.tooManyDecimals': 'Bomfyeni nambala shibili fye panuma ya kadonti.',
  'validation.amount.tooLarge': 'Indalama te kucila pa {max}.',
  'validation.tooManyTries': 'Mwaesha imiku iingi. Napapata tendekeni nakabili ilyo mwaipekanya.',

  // flows: shared
  'flow.choice.retry': 'Eseshenipo nakabili',
  'flow.choice.back': 'Bwelelamo',
  'flow.choice.changeAnswer': 'Alulenipo icasuko',
  'flow.choice.end': 'Pwisheni',
  'flow.choice.more': 'Na fimbi',
  'flow.choice.yes': 'Ee',
  'flow.choice.no': 'Awe',
  'flow.failed.timeout': 'Kampani ya inshuwalansi ilekokola ukwasuka.',
  'flow.failed.unavailable': 'Kampani ya inshuwalansi taisangwa nomba.',
  'flow.failed.rejected': 'Kampani ya inshuwalansi taipokelele ifi.',
  'flow.failed.notFound': 'Tatwasangile ico.',
  'flow.failed.denied': 'Ubu butumikishi tabuli kuli imwe nomba.',
  'flow.failed.limited': 'Mwalomba imiku iingi nga nshi.',
  'flow.failed.unknown': 'Mutulekelele, kwaba ubwafya.',
  'flow.failed.said': '{said}',
  'flow.failed.check': 'Napapata moneni ifyasuko fyenu.',
  'flow.field.registrationNumber': 'Napapata moneni nambala ya motoka.',
  'flow.field.vehicleId': 'Napapata moneni nambala ya iyo motoka.',
  'flow.field.nrcNumber': 'Napapata moneni nambala ya NRC.',
  'flow.field.clientId': 'Napapata moneni ifya mwine wa policy.',
  'flow.field.firstName': 'Napapata moneni ishina lya ntanshi.',
  'flow.field.lastName': 'Napapata moneni ishina lya lupwa.',
  'flow.field.chassisNumber': 'Napapata moneni nambala ya chassis.',
  'flow.field.engineNumber': 'Napapata moneni nambala ya injini.',
  'flow.field.sumInsured': 'Napapata moneni umutengo wa motoka.',
  'flow.field.startDate': 'Napapata moneni ubushiku bwa kutendeka.',
  'flow.field.lossDate': 'Napapata moneni ubushiku bwa kulufya.',
  'flow.field.email': 'Napapata moneni imelo.',
  'flow.field.phoneNumber': 'Napapata moneni nambala ya foni.',
  'flow.field.idNumber': 'Napapata moneni nambala ya NRC.',
  'flow.field.mobileMoneyAccountNumber': 'Napapata moneni nambala ya mobile money.',
  'flow.field.destination': 'Napapata moneni icalo muleya.',
  'flow.field.endDate': 'Napapata moneni inshiku sha lwendo.',
  'flow.field.name': 'Napapata moneni ishina.',
  'flow.field.description': 'Napapata moneni ifyacitike.',
  'flow.field.partnerLoanReference': 'Napapata moneni nambala ya ngongole.',
  'flow.field.claimType': 'Napapata moneni ifyacitike.',
  'flow.field.make': 'Napapata moneni umusango wa motoka.',
  'flow.field.model': 'Napapata moneni model ya motoka.',
  'flow.end.mainMenu': 'Menyu ikalamba',
  'flow.end.cancelled': 'Fyafuma. Tapali cimbi icacitika. Shaleni bwino.',
  'flow.end.thanks': 'Natotela. Shaleni bwino.',
  'flow.note.pickFromList': 'Napapata saleni cimo pali ifi.',
  'flow.note.typeAnswer': 'Napapata lembeni icasuko cenu.',
  'flow.note.stuck':
    'Nangu bwelelamo (0) ukwalula icasuko nangu ukuya ku menyu. Ifyasuko fyenu fyasungwa.',
  'flow.note.badName': 'Lembeni ishina mu filembo, te kucila pa {max}.',
  'flow.note.fullName': 'Lembeni ishina lya ntanshi ne lya lupwa, nga Jane Banda.',
  'flow.note.badText': 'Lembeni icasuko icipi (filembo {max} fye).',
  'flow.note.badDescription': 'Londololeni ifyacitike (filembo {max} fye).',
  'flow.note.badIdentifier': 'Bomfyeni filembo ne nambala {max} fye.',
  'flow.note.badMake': 'Lembeni ishina lya motoka, nga Toyota.',
  'flow.note.badChassis': 'Lembeni nambala ya chassis: filembo ne nambala {min} ukufika {max}.',
  'flow.note.badCountry': 'Lembeni icalo, nga South Africa.',
  'flow.note.badEmail': 'Lembeni imelo nga name@mail.com.',
  'flow.note.badYear': 'Lembeni umwaka iyo yapangilwe, nga 2018.',
  'flow.note.vehicleName': 'Lembeni umusango, model no mwaka, nga Toyota Corolla 2015.',

  // flows: payments
  'pay.choice.ownNumber': 'Nambala yandi',
  'pay.choice.otherNumber': 'Nambala imbi',
  'pay.choice.card': 'Kadi',
  'pay.choice.check': 'Moneni nga yalipilwa',
  'pay.choice.tryAgain': 'Lipileni nakabili',
  'pay.askPhone': 'Nambala ya mobile money iya kulipilako {currency} {amount}:',
  'pay.waitPhone': 'Sumineni {currency} {amount} pa foni yenu. Tukamweba nga yalipilwa.',
  'pay.waitConfirming':
    'Ukulipila kwenu {currency} {amount} kulelolesha ku kampani. Tukamweba ifyo fyapwa.',
  'pay.waitCard': 'Lipileni {currency} {amount} na kadi pa link twatuma.',
  'pay.released':
    'Sumineni {currency} {amount} pa {what} ilyo foni yenu yamwipusha PIN. Tukamutumina SMS ya fyafumamo.',
  'pay.waitHandset':
    'Ukulipila kwenu {currency} {amount} pa {what} kulelolela PIN yenu pa foni. Tukamutumina SMS ya fyafumamo.',
  'pay.cardLink': 'Ipepala lya kulipila na kadi',
  'pay.note.stillPending': 'Tucilolela ukufuma {since}. Tukamweba ilyo kampani yasumina.',
  'pay.failed': 'Ukulipila {currency} {amount} pa {what} tafyapitile. Tapali indalama yasendwa.',
  'pay.note.itemPending': 'Ukulipila kwa {item} kucilelolesha. Tukamweba ifyo fyapwa.',
  'pay.note.reason': 'Umulandu: {reason}.',
  'pay.sms.cardLink': 'Lipileni {currency} {amount} na kadi: {url}',

  // main-menu
  'menu.policyholder': 'Mwaiseni. Finshi mulefwaya ukucita?',
  'menu.funeral-member': 'Mwaiseni. Finshi mulefwaya ukucita?',
  'menu.choice.motor': 'Motoka',
  'menu.choice.travel': 'Ulwendo',
  'menu.choice.policies': 'Inshuwalansi yandi',
  // The claims screen glosses the word: the menu has no room for it.
  'menu.choice.claim': 'Ama claim',
  'menu.choice.household': 'Moneni inshuwalansi ya lupwa',
  'menu.choice.person': 'Landeni no muntu',
  'menu.choice.renew': 'Twalilileni {policyNumber}',
  'menu.choice.renewList': 'Twalilileni inshuwalansi ({count} yapwa)',
  // The same entries on USSD, shorter, so the menu keeps to one page (flows/main-menu.ts).
  'menu.ussd.motor': 'Motoka',
  'menu.ussd.travel': 'Ulwendo',
  'menu.ussd.renewList': 'Twalilileni ({count} yapwa)',
  'menu.renewals': 'Nshi mulefwaya ukutwalilila?',
  'menu.choice.renewal': '{policyNumber} (ikapwa {endDate, date, short})',
  'menu.choice.remindersOff': 'Lekeni ukunjibukisha',
  'menu.remindersOff':
    'Ukumwibukisha kwaleka. Kuti mwatwalilila inshuwalansi ukufuma muli iyi menyu, kabili kuti mwabwesha ukwibukisha pa menyu.',
  'menu.choice.remindersOn': 'Ukunjibukisha nakabili',
  'menu.remindersOn': 'Ukumwibukisha kwabwelelamo. Tukamwibukisha ilyo inshuwalansi taila pwa.',
  'menu.note.remindersNotChanged':
    'Mutulekelele, tatwafwile ukwalula ukwibukisha. Eseshenipo pali cimbi.',

  // motor-quote
  'motor.mode': 'Inshuwalansi ya motoka:',
  'motor.choice.new': 'Inshuwalansi ipya',
  'motor.choice.renew': 'Twalilileni policy yandi',
  'motor.choice.otherPlate': 'Nambala imbi',
  'motor.pickProduct': 'Saleni inshuwalansi:',
  'motor.noProducts': 'Tapali inshuwalansi ya motoka nomba.',
  'motor.askPlate': 'Nambala ya motoka:',
  'motor.confirmVehicle': 'Bushe {plate} ni {vehicle} yenu?',
  'motor.askVehicle': 'Umusango, model no mwaka wa motoka (nga Toyota Corolla 2015):',
  'motor.pickCategory': 'Motoka ibomba milimo nshi:',
  'motor.askChassis': 'Nambala ya chassis:',
  'motor.askEngine': 'Nambala ya injini:',
  'motor.askSumInsured': 'Umutengo wa motoka mu ZMW (uwa kulipilwa nga yaonaika):',
  'motor.pickDuration': 'Saleni inshita:',
  'motor.noPricing': 'Tapali umutengo wa iyi motoka.',
  'motor.durationOption': '{label} {currency} {gross}',
  'motor.askHolderPhone': 'Nambala ya foni ya mwine wa policy:',
  'motor.confirmHolder': 'Mwine wa policy: {name}. Cacine?',
  'motor.askHolderNrc': 'Nambala ya NRC ya mwine wa policy:',
  'motor.askName': 'Amashina ya mwine wa policy (nga Jane Banda):',
  'motor.askEmail': 'Imelo ya mwine wa policy:',
  'motor.confirmQuote':
    '{product} {plate}, {startDate, date}-{endDate, date}: {currency} {amount} (premium {basic} + levy {levy}). Lipileni na:',
  'motor.confirmQuote.undated':
    '{product} {plate}, {label}: {currency} {amount} (premium {basic} + levy {levy}). Lipileni na:',
  'motor.askRenewPlate': 'Nambala ya motoka iyo mulefwaya ukutwalilila:',
  'motor.noPolicy': 'Tapali policy ya motoka ya {plate}.',
  'motor.confirmRenewal':
    'Twalilileni {policyNumber} {startDate, date} ukufika {endDate, date}: {currency} {amount}. Lipileni na:',
  'motor.done':
    'Mwalipila {currency} {amount}. {what}, {startDate, date} ukufika {endDate, date}. Nambala ya policy: {policyNumber}.',
  'motor.renewed':
    'Mwalipila {currency} {amount}. Policy {policyNumber} yatwalilila, {startDate, date} ukufika {endDate, date}.',
  'motor.certificate': 'Satifiketi ya inshuwalansi',
  // one-time code that proves a typed NRC (issue 35), and the pay step
  'motor.offerCode': 'Iyi NRC yalembwa ne foni imbi.',
  'motor.choice.sendCode': 'Tumeni code ku foni iyalembwa ({phone})',
  'motor.choice.newHolder': 'Twalilileni nga mwine mupya pali iyi polisi fye',
  'motor.askCode': 'Code iyatumwa ku {phone}:',
  'motor.note.codeSent':
    'Twatuma code pa SMS. Nga tamulekwata ukuibelenga nomba, imbeni na kabili no kuilemba.',
  'motor.note.codeWrong': 'Iyo code yalipusa. Ukwesha kwashalako: {left}.',
  'motor.note.codeFormat': 'Code ni nambala 6.',
  'motor.code.spent': 'Code yapusa imiku 3. Tapali code imbi kuli iyi NRC pa kashita.',
  'motor.code.expired': 'Code yapwa nangu yalibomfiwa kale.',
  'motor.code.unsent': 'Tatulekwata ukutuma code kuli iyi NRC nomba. Eseni na kabili panuma.',
  'motor.choice.newCode': 'Tumeni code ipya',
  'motor.sms.code':
    'Code yenu iya insurechat: {code}. Ileka foni ibomfye NRC yenu pa inshuwalansi ya motoka, pa maminiti 10. Mwilaipeela umuntu; nga tamwaipushishe, musuleni.',
  'motor.confirmRepriced': 'Umutengo nomba ni {currency} {amount}. Lipileni na:',
  'motor.alreadyInsured': '{plate} ilikwete kale inshuwalansi ukufika {until, date}.',
  'motor.paymentUnsettled': 'Ukulipila kwenu kwa {plate} kucilemoneka. Tukamweba ifyacitika.',
  'motor.plateBlocked':
    'Kampani ikwete {plate} pa mwine umbi ushakwete inshuwalansi, kanshi tayingalembwa muno. Umuntu kuti amwafwa.',

  // renewal reminders
  'reminder.notice':
    'Tukamwibukisha ilyo taila pwa. Ukuleka, saleni Lekeni ukunjibukisha mu menyu.',
  'reminder.motor':
    'Inshuwalansi ya motoka {policyNumber} ({what}) ikapwa pa {endDate, date}. Twalilileni nomba.',
  'reminder.motorSms':
    'Inshuwalansi ya motoka {policyNumber} ({what}) ikapwa pa {endDate, date}. Ukutwalilila, imbeni {serviceCode} no kusala Twalilileni {policyNumber}. Asukeni STOP ukuleka ukwibukisha.',
  'reminder.choice.renew': 'Twalilileni nomba',
  'reminder.smsNotice':
    'Tukamwibukisha pa SMS ilyo {policyNumber} taila pwa, pa kuti mutwalilile bwangu. Asukeni STOP ukuleka.',
  'reminder.stopped': 'Ukwibukisha kwaleka. Asukeni START ukubwesha.',
  'reminder.started': 'Ukwibukisha kwabwelelamo. Asukeni STOP ukuleka.',

  // travel-issue
  'travel.loading': 'Tuleleta inshuwalansi ya lwendo...',
  'travel.noPackages': 'Tapali inshuwalansi ya lwendo nomba. Eseshenipo pali cimbi.',
  'travel.pickPackage':
    'Inshuwalansi ya {travellers, plural, one {umuntu # uleya} other {abantu # abaleya}}. Saleni:',
  'travel.askDestination': 'Icalo muleya:',
  'travel.askStartDate': 'Ubushiku bwa kutendeka ulwendo (DD/MM/YYYY):',
  'travel.askName': 'Ishina lyenu lyonse:',
  'travel.askNrc': 'Nambala ya NRC yenu:',
  'travel.travellers': 'Abaleya ukufika nomba: {count}.',
  'travel.choice.addTraveller': 'Lundeni uleya',
  'travel.choice.continue': 'Konkanyeni',
  'travel.askTravellerName': 'Ishina lyonse lya uleya:',
  'travel.askRelationship': 'Ni nani kuli imwe:',
  'travel.relationship.spouse': 'Umukashi nangu umulume',
  'travel.relationship.child': 'Umwana',
  'travel.relationship.parent': 'Umufyashi',
  'travel.relationship.other': 'Umbi',
  'travel.askDays': 'Ulwendo ni lwa nshiku shinga?',
  'travel.note.badDays': 'Lembeni inshiku, ukufuma pa 1 ukufika pa {max}.',
  'travel.confirmQuote':
    '{what}, {startDate, date} ukufika {endDate, date}, {travellers, plural, one {umuntu #} other {abantu #}}: {currency} {amount}. Lipileni na:',
  'travel.done':
    'Mwalipila {currency} {amount}. {what}, {startDate, date} ukufika {endDate, date}. Policy {policyNumber}.',
  'travel.certificate': 'Satifiketi ya lwendo',

  // claim-intimation
  'claim.start': 'Ama claim (ukulomba ubulipilo):',
  'claim.choice.creditLife': 'Inshuwalansi ya ngongole',
  'claim.choice.groupLife': 'Imfwa ya membala wa kabungwe',
  'claim.choice.track': 'Konkeni ama claim yandi',
  'claim.choice.submit': 'Tumeni claim',
  'claim.choice.attach': 'Lundeni amapepala',
  'claim.choice.later': 'Pali cimbi',
  'claim.choice.more': 'Lundeni cimbi',
  'claim.askPolicy': 'Nambala ya policy (nga CL-DEMO-000001):',
  'claim.askPolicy.group-life': 'Nambala ya policy ya kabungwe (nga GL-DEMO-000001):',
  'claim.pickType': 'Cinshi cacitikile uwasendele ingongole?',
  'claim.ask.partnerLoanReference': 'Nambala ya ngongole yenu:',
  'claim.ask.nrcNumber': 'Nambala ya NRC ya membala:',
  'claim.askDate.credit-life': 'Ubushiku bwa kulufya (DD/MM/YYYY):',
  'claim.askDate.group-life': 'Ubushiku bwa mfwa (DD/MM/YYYY):',
  'claim.askDetails': 'Cinshi cacitike?',
  'claim.confirm.credit-life':
    'Claim ya {claimType} pa ngongole {subject}, ukulufya pa {eventDate, date}.',
  'claim.confirm.group-life': 'Claim ya mfwa ya {subject} pa {eventDate, date}.',
  'claim.intimated': 'Claim {number}: {status}. Amapepala yalefwaikwa: {documents}.',
  'claim.intimated.payable':
    'Claim {number}: {status}. Nga claim yasuminwa, inshuwalansi ikalipila {currency} {payable}. Amapepala yalefwaikwa: {documents}.',
  'claim.askDocument': 'Tumeni icikope nangu ifayilo ya claim {number} ({count} fyatumwa).',
  'claim.documented': 'Claim {number}: {status}. Amapepala: {count}.',
  'claim.trackLine': 'Ama claim nshi?',
  'claim.choice.held': 'Claim pa nshuwalansi yandi',
  'claim.choice.other': 'Policy imbi',
  'claim.choice.byNumber': 'Na nambala ya claim',
  'claim.choice.anotherNumber': 'Nambala ya claim imbi',
  'claim.choice.again': 'Eseni nambala imbi',
  'claim.held': 'Claim ni ya ngongole nangu ubumembala nshi?',
  'claim.held.none': 'Tatwasangile ingongole nangu ubumembala pa nambala ya foni yenu.',
  'claim.held.credit-life': 'Ingongole {number} ({covers})',
  'claim.held.group-life': 'Ubumi bwa kabungwe {number} ({covers})',
  'claim.askNumber': 'Lembeni nambala ya claim iyo mwapeelwe (nga CLC-000001):',
  'claim.notFound': 'Tapali claim {number}.',
  'claim.list': 'Ama claim yenu ({count}):',
  'claim.line': '{number} {status}',
  'claim.list.empty': 'Tamwakwata ama claim.',
  'claim.detail':
    'Claim {number}: {status}. Nga claim yasuminwa, inshuwalansi ikalipila {currency} {payable}.',
  'claim.end': 'Claim {number}: {status}. Shaleni bwino.',

  // cover-status
  'cover.askContact':
    'Tinyeni "Peeleni nambala yandi ya foni" pa kumona inshuwalansi yenu, nangu lembeni nambala ya NRC pa kufwaya.',
  'cover.askNrc': 'Lembeni nambala ya NRC:',
  'cover.list': 'Inshuwalansi yenu ({count}):',
  'cover.none': 'Tapali inshuwalansi ya iyi NRC.',
  'cover.mine.none': 'Tapali ama policy pa nambala ya foni yenu.',
  'cover.line.motor': 'Motoka {number} {status}',
  'cover.line.travel': 'Ulwendo {number} {status}',
  'cover.line.life': 'Ubumi {number} {status}',
  'cover.line.funeral': 'Icililo {number} {status}',
  'cover.line.groupLife': 'Ubumi bwa kabungwe {number} {status}',
  'cover.line.creditLife': 'Ingongole {number} {status}',
  'cover.detail.motor':
    'Motoka {number}: {status}, {startDate, date} ukufika {endDate, date}. Motoka {covers}. Premium {currency} {amount}.',
  'cover.detail.travel':
    'Ulwendo {number}: {status}, {startDate, date} ukufika {endDate, date}. {covers}. Premium {currency} {amount}.',
  'cover.detail.life':
    'Ubumi {number}: {status}, {startDate, date} ukufika {endDate, date}. Premium {currency} {amount}.',
  'cover.detail.funeral':
    'Icililo {number}: {status}, {startDate, date} ukufika {endDate, date}. Ulupwa lwa {covers}. Premium {currency} {amount}.',
  'cover.detail.group-life':
    'Ubumi bwa kabungwe {number}: {status}, {startDate, date} ukufika {endDate, date}. Membala {covers}. Inshuwalansi {currency} {amount}.',
  'cover.detail.credit-life':
    'Ingongole {number}: {status}, {startDate, date} ukufika {endDate, date}. Policy {covers}. Indalama {currency} {amount}.',
  'cover.note.until': 'Mwaba ne nshuwalansi ukufika {until, date}.',
  'cover.note.freeCoverLimit':
    'Inshuwalansi ukucila {currency} {limit} ilefwaya ukupimwa: ukufika apo tailipilwa.',
  'cover.note.shareContact': 'Tinyeni "Peeleni nambala yandi ya foni", nangu lembeni NRC.',
  'cover.limited.covered':
    'Iyi NRC ili ne nshuwalansi ukufika {until, date}. Ifyebo fiya fye ku foni iyalembwa.',
  'cover.limited.none': 'Tapali inshuwalansi iibomba iya iyi NRC.',
  'cover.limited.unknown': 'Tatulekwanisha ukushininkisha inshuwalansi ya iyi NRC nomba.',
  'cover.unknown':
    'Tatulekwanisha ukumona inshuwalansi yenu nomba - eseshenipo na kabili pa maminiti yanono.',
  'cover.certificate': 'Satifiketi',
  'cover.certificate.ready': 'Satifiketi ya {number}:',
  'cover.certificate.sms': 'Satifiketi ya {number} yatumwa kuli imwe pa SMS.',
  'cover.sms.certificate': 'Satifiketi yenu ya {number}:',
  'cover.sms.details': 'Inshuwalansi yenu:',
  'cover.sms.holding':
    '{line} {number}: {status}, {startDate, date} ukufika {endDate, date}{covers}',
  'cover.sms.holdingUntil':
    '{line} {number}: {status}, {startDate, date} ukufika {endDate, date}{covers}',
  'cover.sms.sent': 'Ifyebo fyatumwa pa SMS ku foni iyalembwa.',
  'cover.choice.another': 'NRC imbi',
  'cover.choice.byNrc': 'Fwaileni na NRC',
  'cover.choice.list': 'Bwelelani ku mutande',
  'cover.choice.certificate': 'Satifiketi',
  'cover.choice.sms': 'Tumeni ifyebo pa SMS',

  // payments: outcome notices (one SMS each)
  'payment.outcome.paid':
    'Ubulipilo {reference} bwapokelelwa. Nambala ya policy yenu ni {policyNumber}.',
  'payment.outcome.paidWithoutPolicy':
    'Ubulipilo {reference} bwapokelelwa. Policy yenu ileipekanishiwa; bwelelenimo pa kumona nambala yaiko.',
  'payment.outcome.failed':
    'Ubulipilo {reference} tabwapitile. Tapali indalama yasendwa. Bwelelenimo pa kwesha nakabili.',
  'payment.outcome.pending':
    'Ubulipilo {reference} bucilolela. Nga mwasumina, bwelelenimo pa kumona nakabili.',

  // whatsapp
  'whatsapp.choose': 'Salapo',
  'whatsapp.word.menu': 'menyu, tampa',
  'whatsapp.word.cancel': 'leka, lekeni',
  'whatsapp.word.done': 'napwa',
  'whatsapp.unsupported':
    'Mutulekelele, WhatsApp tayapitishe ubu bukombe kuli ine. Napapata lembeni icasuko cenu nangu tinyeni kamo pali aya mabatani.',

  // telegram
  'telegram.shareContact': 'Peeleni nambala yandi ya foni',
  'telegram.shareContactBelow':
    'Tinyeni "Peeleni nambala yandi ya foni" apa nshi pa kupeela nambala ya iyi Telegram.',
  'telegram.notYourContact':
    'Iyo te nambala yenu. Tinyeni "Peeleni nambala yandi ya foni" pa kupeela nambala ya iyi Telegram.',
  'telegram.help':
    'Kuti namweba umutengo no kushitisha inshuwalansi ya motoka ne ya lwendo, ukupokelela ama claim no kumona inshuwalansi yenu.\n/start - menyu ikalamba\n/cancel - lekeni ifyo mulecita\n/status - moneni inshuwalansi yenu\n/language - alulenipo ululimi\n/help - ubu bukombe',
  'chat.filesUnavailable': 'Mutulekelele, nshingapokelela amafayilo muno. Eseshenipo pali cimbi.',
  'telegram.menuExpired': 'Iyo menyu yapwa. Twaba apa:',
  'chat.unsupported': 'Mutulekelele, nshingabomfya ama sticker, amashiwi nangu incende.',
  'chat.unexpectedFile': 'Nshilefwaya icikope nangu ifayilo pa ici cipande.',
  'telegram.expect.text': 'Napapata lembeni icasuko cenu.',
  'telegram.expect.nrc': 'Napapata lembeni nambala ya NRC, nga 123456/10/1.',
  'telegram.expect.phone':
    'Napapata lembeni nambala ya foni, nangu tinyeni Peeleni nambala yandi ya foni.',
  'telegram.expect.date': 'Napapata lembeni ubushiku, nga 25/12/2026.',
  'telegram.expect.amount': 'Napapata lembeni indalama mu nambala.',
  'telegram.expect.choice': 'Napapata tinyeni kamo pali aya mabatani.',
  'telegram.expect.contact':
    'Napapata tinyeni Peeleni nambala yandi ya foni, nangu lembeni nambala.',
  'telegram.expect.photo': 'Napapata tumeni icikope nangu ifayilo.',
  'telegram.expect.none': 'Tumeni /start pa kumona menyu ikalamba.',
  'telegram.expect.start': 'Tumeni /start pa kutendeka.',
  'telegram.command.start': 'Menyu ikalamba',
  'telegram.command.help': 'Ifyo ningacita',
  'telegram.command.cancel': 'Lekeni ifyo mulecita',
  'telegram.command.status': 'Moneni ama policy ne nshuwalansi yenu',
  'telegram.command.human': 'Landeni no muntu',
  'telegram.command.language': 'Alulenipo ululimi',

  // ussd
  'sms.continueHint': 'Ukukonkanya, imbeni {serviceCode} no kusala Konkanyeni.',
  'ussd.more': 'Na fimbi',
  'ussd.back': 'Bwelelamo',
  'ussd.resumeTitle': 'Mwaba ne fyo tamwapwishe.',
  // What is unfinished, under ussd.resumeTitle on the resume offer (flows/unfinished.ts).
  'resume.motor': 'Ukushita inshuwalansi ya motoka.',
  'resume.motorFor': 'Ukushita inshuwalansi ya motoka {plate}.',
  'resume.travel': 'Ukushita inshuwalansi ya lwendo.',
  'resume.travelTo': 'Ukushita inshuwalansi ya lwendo ku {destination}.',
  'resume.claim': 'Ukulemba claim.',
  'resume.claimFor': 'Ukulemba claim ya {label}.',
  'ussd.resumeContinue': 'Konkanyeni',
  'ussd.resumeRestart': 'Tendekeni nakabili',
  'ussd.useMyNumber': 'Bomfyeni iyi nambala',
  'ussd.stillWorking':
    'Tucili tulebombelapo. Tukamutumina SMS nga fyapwa. Imbeni nakabili pa kukonkanya.',
  'ussd.sorry': 'Mutulekelele, kwaba ubwafya kuli fwebo. Napapata imbeni nakabili panono.',

  // handoff (the customer's side)
  'handoff.opened':
    'Nomba mulelanda no muntu wa kampani ya inshuwalansi. Lembeni ubukombe bwenu muno kabili bakasuka muno. Tumeni /done ukubwelela uko mwali.',
  'handoff.already':
    'Umuntu ali ne fyo mwalomba kabili akasuka muno. Tumeni /done ukubwelela uko mwali.',
  'handoff.unavailable': 'Mutulekelele, tapali umuntu nomba.',
  'handoff.failed': 'Mutulekelele, tatwasangile umuntu nomba. Eseshenipo pali cimbi.',
  'handoff.forwardFailed': 'Mutulekelele, ubukombe bwenu tabwafikile. Tumeni nakabili panono.',
  'handoff.staffReply': 'Ukufuma ku kampani: {text}',
  'handoff.staffFile': 'Ukufuma ku kampani: ifyalembwa fyenu.',
  'handoff.staffFileLabel': 'Ifyalembwa ukufuma ku kampani',
  'handoff.fileTooLarge':
    'Mutulekelele, ifyalembwa ifi fyacila pa 20 MB kabili tafyafikile ku muntu.',
  'handoff.reopened':
    'Umuntu wa kampani nakabili ali ne fyo mwalomba. Lembeni muno kabili akasuka. Tumeni /done ukubwelela uko mwali.',
  'handoff.reopenedSms': 'Umuntu wa kampani nakabili ali ne fyo mwalomba kabili akamwasuka pa SMS.',
  'handoff.resolved': 'Umuntu apwisha ukumwafwa. Mwali apa:',
  'handoff.resolvedFresh': 'Umuntu apwisha ukumwafwa. Tumeni /start pa kumona menyu.',
  'handoff.back': 'Mwabwelela ku wa kwafwa. Mwali apa:',
  'handoff.notOpen': 'Tamulelanda no muntu. Mwaba apa:',
  'handoff.resolvedSms': 'Umuntu apwisha ukumwafwa. Imbeni {serviceCode} pa kukonkanya.',
  'handoff.ussd.waiting':
    'Umuntu ali ne fyo mwalomba kabili akamwasuka pa SMS. Pa kumulembela, lembeni ubukombe bwenu.',
  'handoff.ussd.sent': 'Fyatumwa. Umuntu akamwasuka pa SMS.',
  'handoff.ussd.notSent': 'Mutulekelele, ubukombe bwenu tabwafikile. Tumeni nakabili.',
  'handoff.ussd.end': 'Pwisheni no kukonkanya',
  'handoff.consent':
    'Umuntu wa kampani ya inshuwalansi akabelenga ifyo mulemba no kumona ifikope mutuma mu Slack, NRC ne nambala ya foni ifyafisama; fisungwa inshiku 7. Mulasumina?',
  'handoff.choice.agree': 'Nasumina, landeni no muntu',
  'handoff.choice.decline': 'Awe',
  'handoff.declined': 'Tapali ifyatumwa ku muntu.',

  // language
  'language.pick': 'Language / Ululimi / Chiyankhulo:',
  'language.changed': 'Ululimi lwenu nomba ni Ichibemba.',
  'menu.choice.language': 'Ululimi',
  // one access rule (issue 23): cover held by another phone, claims already open
  'motor.heldElsewhere.new':
    '{plate} yalembwa kuli mwine umbi. Ni foni iyalembwa fye iyingaipeela inshuwalansi muno.',
  'motor.heldElsewhere.renew':
    '{plate} ili ne nshuwalansi ya mwine umbi. Ni foni iyalembwa iya policy fye iyingaitwalilila.',
  'motor.heldElsewhere.new.contact':
    '{plate} yalembwa kuli mwine. Nga ni yenu, peeleni nambala ya foni yenu; nga te fyo:',
  'motor.heldElsewhere.renew.contact':
    '{plate} ili ne nshuwalansi ya mwine. Nga ni yenu, peeleni nambala ya foni yenu; nga te fyo:',
  'motor.choice.tellHolder': 'Tumineni mwine SMS',
  'motor.note.holderTold': 'Twatumina mwine SMS.',
  'motor.sms.asked.new':
    'Umuntu alomba inshuwalansi ya {plate} pa insurechat. Nga ni imwe, tuimbileni ukufuma pali iyi foni.',
  'motor.sms.asked.renew':
    'Umuntu alomba ukutwalilila inshuwalansi ya {plate} pa insurechat. Nga ni imwe, tuimbileni ukufuma pali iyi foni.',
  'claim.detail.noPayable': 'Claim {number}: {status}.',
  'claim.detail.status':
    'Claim {number}: {status}. Ifyebo fyaiko fiya fye ku foni iyalembwa iya membala nangu iya ngongole.',
  'claim.start.contact':
    'Ama claim (ukulomba ubulipilo). Peeleni nambala ya foni yenu pa kumona ama claim ne nshuwalansi yenu.',
  'claim.note.alreadyOpen': 'Claim ya ici yalibako kale: {number}. Konkeni iyo claim.',
  'claim.alreadyOpen': 'Claim ya ici yalibako kale: {number}.',
  'claim.choice.trackOpen': 'Konkeni iyo claim',
  'claim.choice.anotherSubject': 'Ingongole nangu membala umbi',
  'claim.note.alreadyOpenElsewhere':
    'Claim ya ici yalibako kale. Uwa mu lupwa uwaituma ali ne nambala yaiko.',
  'claim.note.noDocuments':
    'Kampani ilebomba pali iyi claim: tailepoka amapepala yambi kuno. Imbileni kampani.',
  'claim.note.notYours': 'Ni foni iyalembwa iya iyi claim fye iyingacita ifyo.',
  'claim.note.unknown':
    'Tatulekwanisha ukumona ama claim yenu nomba - eseshenipo na kabili pa maminiti yanono.',
  'claim.note.openUnknown':
    'Tatulekwanisha ukumona nga claim ya ici yalibako kale nomba - eseshenipo na kabili pa maminiti yanono.',
  'claim.needPhone':
    'Pa kutuma claim, peeleni nambala ya foni yenu pa kubala: kampani ikamutumina pali iyo, kabili uwalembwa akeshiba uwatumine claim.',
  'claim.note.needPhone': 'Peeleni nambala ya foni yenu pa kubala pa kutuma claim.',
  'claim.sms.reported':
    'Claim {number} yatumwa pa nshuwalansi yenu ukufuma ku foni imbi. Nga tamwalesubila ici, imbeni {serviceCode} no kusala Landeni no muntu, no kulanda {number}.',
  'claim.progress': 'Claim {number} nomba: {insurerStatus}.',
  'claim.progress.documented': 'Claim {number}: kampani yapokelela amapepala kabili ikalolesha.',
  'claim.sms.reported.noCode':
    'Claim {number} yatumwa pa nshuwalansi yenu ukufuma ku foni imbi. Nga tamwalesubila ici, landeni ne kampani no kulanda {number}.',
  'claim.note.held':
    'Amapepala yenu yasungwa. Ababomfi bakamona claim pamo no lupwa, e lyo bakayatuma ku kampani.',

  // personal data (issue 29): the notice, My data
  'menu.choice.myData': 'Ifyebo fyandi',
  'privacy.notice':
    'Tusunga nambala, NRC, ishina ne nshuwalansi yenu pa kumubombela, ukufika inshiku 500 panuma ya kupwa. Moneni nangu fuuteni mu Ifyebo fyandi.',
  'privacy.noticeFull':
    'Ifya nkama (ukwalula kwa 2).\nUusunga: {controller} e usunga ifyebo fyenu. Kapimpila wa fya nkama: {contact}.\nIfyo tusunga: nambala ya foni nangu ilyashi lyenu, ifyasuko fyenu (NRC, amashina, imelo, motoka, ulwendo), ama policy yenu ne mafayilo mutuma.\nMulandu: pa kumushitisha no kumubombela inshuwalansi, ukubomba pa ma claim yenu no kumwibukisha ilyo taila pwa.\nAbo tulanga: kampani ya inshuwalansi iipeela no kusunga ama policy yenu; abasunga ama server yesu; aba SMS abamutumina amashiwi; Telegram, Meta (WhatsApp) nangu Slack ilyo mwababomfya nangu mwalomba umuntu (abakabomba bamona NRC ne nambala ifyafisama).\nKunse ya calo: Telegram, Meta na Slack, na basunga ama server yesu nga bali kunse, basunga ifyebo kunse ya Zambia.\nInshita: ilyashi amaminiti 15, ifya bulipilo ubushiku 1, amafayilo inshiku 30 (amafayilo ya claim ilyo kampani ya inshuwalansi icili ilelanda pa claim, no mwaka 1 pa numa), ifya kwibukisha ukufika inshiku 500 panuma ya kupwa kwa nshuwalansi. Nga mwafuuta, tusunga fye akashibilo akafisama aka nambala ne NRC fyenu, imyaka 2, pa kuti twibabwekeshamo.\nAmaka yenu: mu Ifyebo fyandi moneni ifyo twakwata, fifuuteni nangu tulekeni ukufibomfya; lombeni {contact} ukumupeela ifyo twakwata nangu ukulungika; kuti mwailishanya kuli Data Protection Commissioner wa Zambia (Data Protection Act No. 3 of 2021).',
  'privacy.choice.agree': 'Nasumina',
  'privacy.choice.decline': 'Awe',
  'privacy.choice.full': 'Fyonse',
  'privacy.declined':
    'Mwakaana, e ico tatwasungile nangu cimo pali imwe. Sumineni pali cimbi ilyo mwaimba pa kushita nangu ukumona inshuwalansi. Shaleni bwino.',
  'privacy.note.notRecorded':
    'Mutulekelele, tatwafwile ukulemba icasuko cenu. Eseshenipo nakabili.',
  'mydata.overview':
    'Twakwata: nambala yenu {address}; {nrcCount, plural, =0 {tapali NRC} other {NRC {nrcs}}}; {policies, plural, =0 {tapali policy tulekonka} one {policy # tulekonka} other {ama policy # tulekonka}}{numbered, plural, =0 {} other { ({policyNumbers})}}; {card, plural, =0 {tapali kadi ya kwibukisha} other {kadi ya kwibukisha}}; {consented, select, yes {mwasumina ifya nkama pa {agreedDate, date}} other {tamulasumina ifya nkama}}; amalyashi {handoffs} no muntu; amafayilo {files} mwatumine. Kampani isunga ifyayo.',
  'mydata.choice.delete': 'Fuuteni ifyebo fyandi',
  'mydata.choice.stop': 'Lekeni ukubomfya ifyebo fyandi',
  'mydata.confirmDelete':
    'Fuuteni ifyo twakwata pali imwe: amalyashi, kadi ya kwibukisha, amalyashi no muntu, amafayilo? Ama policy yenu yaikala ku kampani.',
  'mydata.choice.yesDelete': 'Ee, fuuteni',
  'mydata.confirmStop':
    'Tuleke ukubomfya ifyebo fyenu? Tukafuuta ifyo twakwata, ukwibukisha kukaleka, kabili tukamwipusha nakabili pali cimbi. Ama policy yenu yaikala ku kampani.',
  'mydata.choice.yesStop': 'Ee, lekeni',
  'mydata.deleted':
    'Fyafuutwa. {paymentsKept, plural, =0 {} other {Ubulipilo ubucili bulecitika bwasungwa ukufika bwapwa (ubushiku 1 fye). }}Kampani isunga ifyayo ifya ma policy yenu.',
  'mydata.stopped':
    'Fyapwa: twafuuta ifyebo fyenu kabili tatukafibomfya; ukwibukisha kwaleka. {paymentsKept, plural, =0 {} other {Ubulipilo ubucili bulecitika bwasungwa ukufika bwapwa (ubushiku 1 fye). }}Kampani isunga ifyayo.',
  'mydata.failed':
    'Mutulekelele, tatwafwile ukupwisha ukufuuta ifyebo fyenu. Eseshenipo pali cimbi.',
  'mydata.receipt.deleted':
    'Risiti: nga fintu mwalombele, twafuuta ifyebo insurechat yakwete pali iyi nambala. Kampani isunga ifyayo ifya ma policy yenu.',
  'mydata.receipt.stopped':
    'Risiti: nga fintu mwalombele, insurechat yaleka ukubomfya iyi nambala, yafuuta ifyo yakwete kabili yaleka ukwibukisha. Kampani isunga ifyayo.',
  // claims finished on any channel (issue 30)
  'claim.pickType.none': 'Kampani taikwata inshuwalansi ya kulombelapo claim pali iyi policy.',
  'claim.note.late':
    'Ukulufya kwali inshiku {days} ishapita: ama claim yalefwaikwa ilyo inshiku {allowed} tashilapwa kabili kuti yakaanwa.',
  'claim.linkSent':
    'Twamutumina SMS ne link ya claim {number}: iisuleni pa kutuma ifikope nangu amafayilo.',
  'claim.sms.upload': 'Tumeni amapepala ya claim {number} (ifikope nangu amafayilo) apa:',
  'claim.uploadPage': 'Lundeni amapepala',
  'claim.notice.link':
    'Claim {number} ({claimType}, {subject}) yapokelelwa. Kampani ikaimona no kumulandako. Amapepala yalefwaikwa: {documents}. Tumeni ifikope nangu amafayilo apa:',
  'claim.notice.chat':
    'Claim {number} ({claimType}, {subject}) yapokelelwa. Kampani ikaimona no kumulandako. Amapepala yalefwaikwa: {documents}. Tumeni ifikope nangu amafayilo muli ili lyashi: Ama claim, Konkeni ama claim yandi, e lyo {number}.',
  'documents.page.title': 'Amapepala ya claim',
  'documents.page.claim': 'Claim {number}:',
  'documents.page.held': 'Amapepala kampani yakwata: {count}.',
  'documents.page.choose':
    'Kopeni icikope nangu saleni amafayilo (ifikope nangu PDF, ukufika {mb} MB kuli cila cimo)',
  'documents.page.sending': 'fileya...',
  'documents.page.sent': 'fyaya',
  'documents.page.kept':
    'fyasungwa; ababomfi bakamona claim pamo no lupwa, e lyo bakafituma ku kampani',
  'documents.page.failed': 'tafyaile; moneni intaneti yenu no kwesha nakabili',
  'documents.page.needed': 'Amapepala kampani ilefwaya: {documents}.',
  'documents.page.linkMalformed': 'Iyi link taipwililika.',
  'documents.page.linkForged': 'Iyi link taili iya cine.',
  'documents.page.linkExpired': 'Inshita ya iyi link yapwa.',
  'documents.page.unavailable': 'Tatulekwata kampani nomba. Eseshenipo pali cimbi.',
  'documents.page.unreadable': 'Tatwabelenga ifi fyatumwa. Napapata eseshenipo nakabili.',
  'documents.page.notSent': 'Ifi fyatumwa tafyafikile. Napapata eseshenipo nakabili.',
  'documents.page.notTaken':
    'Kampani taipokelele ifi fyatumwa nomba. Napapata eseshenipo nakabili.',
  'files.refused.type': 'Ifikope (JPEG, PNG, WebP, HEIC) na mafayilo ya PDF fye e fingatumwa.',
  'files.refused.tooLarge': 'Ifayilo yakula sana: ifayilo imo te kucila pa {mb} MB.',
  'files.refused.claimFull':
    'Iyi claim teti ipokelele iyi fayilo: claim imo ipokelela amafayilo {files} na {mb} MB yonse fye.',
  'cover.choice.claim': 'Lombeni claim',
  'cover.choice.renew': 'Twalilileni',

  // status words: the insurer's statuses in the customer's words (flows/status-words.ts)
  'status.inForce': 'ilebomba',
  'status.inGrace': 'ilebomba, lipileni premium',
  'status.inGraceUntil': 'ilebomba ukufika {until, date}, lipileni premium',
  'status.waitingPremium': 'ilelolela premium',
  'status.lapsed': 'yaleka ukubomba, premium tailipilwe',
  'status.offCover': 'tamwaba ne nshuwalansi',
  'status.ended': 'yapwa',
  'status.cancelled': 'yalekeshiwa',
  'status.notIssued': 'tailapeelwa',
  'status.claimReceived': 'claim yapokelelwa',
  'status.documentsReceived': 'amapepala yapokelelwa',
  'status.paymentPending': 'ilelolela ubulipilo',
  'status.paid': 'yalipilwa',
  'status.paymentFailed': 'ukulipila tafyapitile',
  'status.claimHandled': 'kampani ilebomba pali iyi claim ({insurerStatus})',
  'status.unconfirmed': 'tatwashininkishe iyi nshuwalansi - imbileni kampani',
  'status.notCheckedNow': 'tatulekwanisha ukumona nomba',

  // what is bought (a payment's item, a reminder's words)
  'what.motor': '{product}, motoka {plate}',
  'what.motorCover': 'Inshuwalansi ya motoka {plate}',
  'what.renewal': 'ukutwalilila {policyNumber}',
  'what.renewalOfPlate': 'ukutwalilila {policyNumber} ({plate})',
  'what.travel': '{product} ku {destination}',
  'what.travelCover': 'Inshuwalansi ya lwendo ku {destination}',
  'what.line.motor': 'Motoka',
  'what.line.travel': 'Ulwendo',
  'what.line.life': 'Ubumi',
  'what.line.funeral': 'Icililo',
  'what.line.group-life': 'Ubumi bwa kabungwe',
  'what.line.credit-life': 'Ingongole',
  'travel.packageOption': '{product}: {currency} {amount}',

  // the insurer's own words (src/conversation/insurer-words.ts)
  'insurer.product.motorThirdParty': 'Inshuwalansi ya motoka ku bambi',
  'insurer.product.motorFireTheft': 'Motoka: ku bambi, umulilo no bupupu',
  'insurer.product.motorComprehensive': 'Motoka: fyonse',
  'insurer.product.africaExplorer': 'Ulwendo mu Africa',
  'insurer.product.worldwideStandard': 'Ulwendo mu calo conse',
  'insurer.product.termLife': 'Inshuwalansi ya mweo iya nshita',
  'insurer.product.funeralPlan': 'Inshuwalansi ya cililo',
  'insurer.product.creditLife': 'Inshuwalansi ya ngongole',
  'insurer.product.householders': "Inshuwalansi ya ng'anda",
  'insurer.product.crop': 'Inshuwalansi ya fisabo',
  'insurer.period.days': '{count, plural, one {ubushiku #} other {inshiku #}}',
  'insurer.period.weeks': '{count, plural, one {umulungu #} other {imilungu #}}',
  'insurer.period.months': '{count, plural, one {umweshi #} other {imyeshi #}}',
  'insurer.period.quarters':
    '{count, plural, one {icipindi # ca myeshi 3} other {ifipindi # ifya myeshi 3}}',
  'insurer.period.years': '{count, plural, one {umwaka #} other {imyaka #}}',
  'insurer.scope.death': 'Imfwa',
  'insurer.scope.disability': 'Ukulemana kwa muyayaya',
  'insurer.scope.retrenchment': 'Ukufumishiwa incito',
  'insurer.document.deathCertificate': 'Satifiketi ya mfwa',
  'insurer.document.loanStatement': 'Ipepala lya ngongole',
  'insurer.document.medicalReport': 'Ripoti ya kwa dokota',
  'insurer.document.terminationLetter': 'Kalata ya kufumishiwa incito',
  'insurer.document.policyWording': 'Amashiwi ya policy',
  'insurer.document.burialPermit': 'Insambu ya kushika',
  'insurer.document.nrcCopy': 'Kopi ya NRC',
  'insurer.category.private': 'Iya mwine',
  'insurer.category.commercial': 'Iya makwebo',
  'insurer.category.psv': 'Iya kusenda abantu (basi, takisi)',
  'insurer.reason.declined': 'Mwakaana ukulipila pa foni',
  'insurer.reason.insufficientFunds': 'Indalama tashikumene',
  'insurer.reason.expired': 'Inshita ya kusumina yapwa ukwabula ukwasuka',
  'insurer.reason.failed': 'tafyapitile',
  'insurer.claimStatus.underReview': 'ilepimwa',
  'insurer.claimStatus.assessed': 'yapimwa',
  'insurer.claimStatus.approved': 'yasuminwa',
  'insurer.claimStatus.settled': 'yalipilwa',
  'insurer.claimStatus.paid': 'yalipilwa',
  'insurer.claimStatus.rejected': 'yakaanwa',
  'insurer.claimStatus.declined': 'yakaanwa',
  'insurer.claimStatus.closed': 'yaisalwa',
  'insurer.relationship.principal': 'Mwine',
  'insurer.relationship.spouse': 'Umwina mwabo',
  'insurer.relationship.child': 'Umwana',
  'insurer.relationship.parent': 'Umufyashi',
  'insurer.relationship.other': 'Umbi',
  // the insurer's refusals (`{said}`)
  'insurer.refusal.vehicleElsewhere': 'Iyi motoka yalembwa kuli umbi.',
  'insurer.refusal.alreadyRegistered': 'Yalilembwa kale.',
  'insurer.refusal.alreadyUsed': 'Yalibomfiwa kale.',
  'insurer.refusal.required': 'Ifi filefwaikwa.',
  'insurer.refusal.expectedDate': 'Lembeni ubushiku.',
  'insurer.refusal.expectedMobile': 'Lembeni nambala ya foni iya mu Zambia, nga 0971234567.',
  'insurer.refusal.endAfterStart': 'Ubushiku bwa kupwa bubeko pa numa ya bwa kutendeka.',
  'insurer.refusal.endAfterPolicyEnd':
    'Ubushiku bupya ubwa kupwa bubeko pa numa ya bushiku policy ipwa.',
  'insurer.refusal.noPremiumYet': 'Tapalaba ukulipila kuli iyi policy.',
  'insurer.refusal.lossInFuture': 'Ubushiku bwa kulufya tabulafika.',
  'insurer.refusal.loanNotOnRisk': 'Ingongole taila ingila mu nshuwalansi.',
  'insurer.refusal.loanOffCover': 'Ingongole tayali mu nshuwalansi pa bushiku bwa kulufya.',
  'insurer.refusal.lossBeforeCover':
    'Ubushiku bwa kulufya bwali ilyo ingongole na policy fishilatendeka.',
  'insurer.refusal.lossInLapse':
    'Ubushiku bwa kulufya bwali ilyo inshuwalansi yaleka: tayalipilwe.',
  'insurer.refusal.memberPending': 'Uyu muntu ali mu kabungwe akacilolela: tali mu nshuwalansi.',
  'insurer.refusal.memberOffCover': 'Uyu muntu tali mu nshuwalansi pa bushiku bwa mfwa.',
  'insurer.refusal.beforePolicyStart': 'Ilyo policy ishilatendeka.',
  'insurer.refusal.lateNotice':
    'Ama claim yalefwaikwa mu nshiku {allowed} ukufuma pa kulufya; uku kulufya kwali inshiku {days} ishapita.',
  'insurer.refusal.alreadyPaid': 'Yalilipilwa kale (nambala {reference}).',

  // limits (src/limits)
  'limits.note.hour': 'Napapata eseshenipo pa numa ya ola limo.',
  'limits.note.day': 'Napapata eseshenipo mailo.',
  'limits.note.later': 'Tatulekwanisha ukucita ifi nomba. Napapata eseshenipo pali cimbi.',

  // short titles of WhatsApp list rows (24 characters at most)
  'menu.choice.renew.short': 'Twalilileni polisi',
  'menu.choice.renewList.short': 'Twalilileni ({count} yapwa)',
  'menu.choice.renewal.short': '{policyNumber}',
  'motor.choice.sendCode.short': 'Tumeni code ku {phone}',
  'motor.choice.newHolder.short': 'Nga mwine mupya',
  'claim.choice.groupLife.short': 'Imfwa ya membala',
  'claim.choice.held.short': 'Pa nshuwalansi yandi',
  // The travel package's own line (travel.packageOption) where it is keyed.
  'travel.packageOption.short': '{product}',
  'claim.held.credit-life.short': '{number}',
  'claim.held.group-life.short': '{number}',
  'claim.line.short': '{number}',
  'cover.line.motor.short': '{number}',
  'cover.line.travel.short': '{number}',
  'cover.line.life.short': '{number}',
  'cover.line.funeral.short': '{number}',
  'cover.line.groupLife.short': '{number}',
  'cover.line.creditLife.short': '{number}',
};
